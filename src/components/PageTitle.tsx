import type { ReactNode } from "react";
import { Typography } from "antd";

/**
 * A page's one h1, at the size Refine's page header gives its title. Refine draws a string title as
 * an h4 with nothing above it, so a screen reader's list of headings started at level 4; given this
 * node instead, the page starts at its h1 and a long title wraps instead of being cut on a phone.
 */
export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <Typography.Title level={1} style={{ margin: 0, fontSize: 20, lineHeight: 1.4, whiteSpace: "normal" }}>
      {children}
    </Typography.Title>
  );
}
