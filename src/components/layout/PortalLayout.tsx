import { useEffect, type ReactNode } from "react";
import { useGetIdentity } from "@refinedev/core";
import { Grid, Layout } from "antd";
import { useLocation, useNavigate } from "react-router";
import type { SessionUser } from "../../providers/session";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import { SubscriberTabBar } from "./SubscriberTabBar";
import { AppHeader } from "../AppHeader";
import { LayoutProvider } from "./layoutContext";
import { PortalSider } from "./PortalSider";
import { keepFocusOnPage } from "../focusKeeper";

/**
 * The signed-in frame: sider (or, for staff on a phone, a drawer), header, and the page; a
 * subscriber on a phone gets the bottom tab bar of their five destinations instead.
 */
export function PortalLayout({ children }: { children: ReactNode }) {
  const screens = Grid.useBreakpoint();
  const { data: user } = useGetIdentity<SessionUser>();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const tabBar = user?.role === "subscriber" && screens.md === false;
  // A dialog whose trigger is gone once it is done (Suspend → Restore) gives focus to its replacement, not <body>.
  useEffect(() => keepFocusOnPage(), []);
  return (
    <LayoutProvider>
      <Layout style={{ minHeight: "100vh" }} hasSider>
        <PortalSider />
        <Layout>
          <AppHeader />
          <Layout.Content>
            <div
              className={tabBar ? "with-tab-bar" : undefined}
              style={{
                minHeight: 360,
                padding: screens.sm === false ? 12 : 24,
                paddingBottom: tabBar ? 72 : undefined,
              }}
            >
              {children}
            </div>
          </Layout.Content>
          {tabBar && (
            <div style={{ ["--portal-brand" as string]: brandOf(runtimeConfig.operator).primary }}>
              <SubscriberTabBar pathname={pathname} navigate={(to) => void navigate(to)} />
            </div>
          )}
        </Layout>
      </Layout>
    </LayoutProvider>
  );
}
