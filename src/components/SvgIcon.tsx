import type { AbstractNode, IconDefinition } from "@ant-design/icons-svg/es/types";

/**
 * One of antd's outlined icons from its bare SVG data (@ant-design/icons-svg), without the icon
 * component's runtime: for the screens that render before antd loads. Decorative: label its control.
 */
export function SvgIcon({ icon }: { icon: IconDefinition }) {
  const svg = icon.icon as AbstractNode; // outlined icons are data, not a two-tone function
  return (
    <svg viewBox={svg.attrs.viewBox} width="1em" height="1em" fill="currentColor" aria-hidden focusable="false">
      {(svg.children ?? []).map((child, i) => (
        <path key={i} d={child.attrs.d} />
      ))}
    </svg>
  );
}
