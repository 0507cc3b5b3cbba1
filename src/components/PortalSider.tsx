import { ThemedSider, type RefineThemedLayoutSiderProps } from "@refinedev/antd";
import { Grid } from "antd";
import "./PortalSider.css";

/**
 * Refine's sider. On phones its own drawer button floats over the page and has no accessible name,
 * so it is hidden here and AppHeader offers a labelled menu button that opens the same drawer.
 */
export function PortalSider(props: RefineThemedLayoutSiderProps) {
  const screens = Grid.useBreakpoint();
  if (screens.lg) return <ThemedSider {...props} />;
  return (
    <div className="portal-sider--mobile">
      <ThemedSider {...props} />
    </div>
  );
}
