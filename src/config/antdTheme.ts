import type { ThemeConfig } from "antd";

/**
 * The portal's antd theme. One definition for App.tsx and the styles the build renders ahead
 * (portalStyles.tsx): antd keys its generated CSS by the theme's tokens, so both must match exactly.
 *
 * antd's grey secondary text (#8c8c8c) is 3.4:1 on white; WCAG AA needs 4.5:1 (hints, breadcrumbs, empty lists).
 * Links follow the brand colour (chosen for 4.5:1) rather than antd's default blue (4.1:1); errors
 * and danger buttons a deeper red than antd's #ff4d4f (3.3:1).
 */
export function portalTheme(primary: string): ThemeConfig {
  return {
    token: {
      colorPrimary: primary,
      colorLink: primary,
      colorError: "#c41d24",
      borderRadius: 8,
      colorTextDescription: "rgba(0, 0, 0, 0.65)",
      colorTextTertiary: "rgba(0, 0, 0, 0.65)",
    },
  };
}
