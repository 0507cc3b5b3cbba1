import type { ReactNode } from "react";
import { Grid, Layout } from "antd";
import { AppHeader } from "../AppHeader";
import { LayoutProvider } from "./layoutContext";
import { PortalSider } from "./PortalSider";

/** The signed-in frame: sider (or phone drawer), header, and the page. */
export function PortalLayout({ children }: { children: ReactNode }) {
  const screens = Grid.useBreakpoint();
  return (
    <LayoutProvider>
      <Layout style={{ minHeight: "100vh" }} hasSider>
        <PortalSider />
        <Layout>
          <AppHeader />
          <Layout.Content>
            <div style={{ minHeight: 360, padding: screens.sm === false ? 12 : 24 }}>{children}</div>
          </Layout.Content>
        </Layout>
      </Layout>
    </LayoutProvider>
  );
}
