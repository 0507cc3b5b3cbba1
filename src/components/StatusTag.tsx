import type { ReactNode } from "react";
import { Tag } from "antd";
import { TONES, type Tone } from "./statusTones";

export { toneOfStatus, type Tone } from "./statusTones";

/** A status as an antd tag in its tone (statusTones.ts). */
export function StatusTag({
  tone,
  children,
  ...attributes
}: { tone: Tone; children: ReactNode } & Record<`data-${string}`, string>) {
  return (
    <Tag style={TONES[tone]} {...attributes}>
      {children}
    </Tag>
  );
}
