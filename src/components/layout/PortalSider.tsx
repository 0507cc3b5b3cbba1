import { useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useGetIdentity, useLink, useLogout, useMenu, useWarnAboutChange, type TreeMenuItem } from "@refinedev/core";
import { Button, Drawer, Grid, Layout, Menu, theme, type MenuProps } from "antd";
import { LeftOutlined, LogoutOutlined, RightOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { translate as t } from "../../i18n";
import { canOpen } from "../../providers/accessControlProvider";
import type { SessionUser } from "../../providers/session";
import { useLayout } from "./layoutContext";
import { PortalTitle } from "./PortalTitle";
import { DESTINATION_SPECS, destinationOf } from "./destinations";
import { SvgIcon } from "../SvgIcon";
import "./portalSider.css";

type MenuItem = NonNullable<MenuProps["items"]>[number];

/**
 * Staff: the menu of every resource and page they may list, as the backend would allow it.
 * Subscribers: their five destinations, nothing of the engine.
 */
function useMenuItems(): { items: MenuItem[]; selectedKey: string; defaultOpenKeys: string[] } {
  const { menuItems, selectedKey, defaultOpenKeys } = useMenu();
  const { data: user } = useGetIdentity<SessionUser>();
  const { pathname } = useLocation();
  const Link = useLink();
  const { mutate: logout } = useLogout();
  const { warnWhen, setWarnWhen } = useWarnAboutChange();

  const toItem = (item: TreeMenuItem): MenuItem | null => {
    if (!canOpen(user, item.name, "list")) return null;
    const label: ReactNode = item.label ?? item.meta?.label ?? item.name;
    const icon = item.meta?.icon;
    if (item.children.length > 0) {
      const children = item.children.map(toItem).filter((child) => child !== null);
      return children.length ? { key: item.key, icon: icon ?? <UnorderedListOutlined />, label, children } : null;
    }
    return {
      key: item.key,
      icon: icon ?? <UnorderedListOutlined />,
      label: <Link to={item.list ?? item.route ?? "/"}>{label}</Link>,
    };
  };
  const signOut = () => {
    if (warnWhen && !window.confirm(t("warnWhenUnsavedChanges"))) return;
    setWarnWhen(false);
    logout();
  };
  const logoutItem = { key: "logout", icon: <LogoutOutlined />, label: t("buttons.logout"), onClick: signOut };
  if (user?.role === "subscriber") {
    const destinations = DESTINATION_SPECS.map((d) => ({
      key: d.key,
      icon: (
        <span className="anticon">
          <SvgIcon icon={d.icon} />
        </span>
      ),
      label: <Link to={d.path}>{t(d.label)}</Link>,
    }));
    return { items: [...destinations, logoutItem], selectedKey: destinationOf(pathname), defaultOpenKeys: [] };
  }
  const items = [...menuItems.map(toItem).filter((item) => item !== null), logoutItem];
  return { items, selectedKey, defaultOpenKeys };
}

/**
 * The portal's navigation: a collapsible sider at a desk, a drawer on a phone (AppHeader's labelled
 * menu button opens it). Written here rather than taken from @refinedev/antd, whose single module
 * would bring its forms, tables and pro-layout to every page, the home page included.
 */
export function PortalSider() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const { mobileMenuOpen, setMobileMenuOpen } = useLayout();
  const [siderCollapsed, setSiderCollapsed] = useState(false); // the desk's sider, narrowed to its icons
  const { items, selectedKey, defaultOpenKeys } = useMenuItems();
  const { data: user } = useGetIdentity<SessionUser>();
  // Subscribers have a bottom tab bar below `md` (PortalLayout) and this short sider above it.
  const subscriber = user?.role === "subscriber";
  const isPhone = subscriber ? screens.md === false : screens.lg === false;
  if (subscriber && isPhone) return null;

  const menu = (
    // At a desk the sider stays in view (sticky) and its menu scrolls between the title bar and the trigger.
    <nav aria-label={t("menu.label")} style={isPhone ? undefined : { height: "calc(100% - 64px)", overflowY: "auto" }}>
      <Menu
        mode="inline"
        className="portal-sider-menu"
        items={items}
        selectedKeys={selectedKey ? [selectedKey] : []}
        defaultOpenKeys={defaultOpenKeys}
        onClick={() => setMobileMenuOpen(false)}
        style={{ paddingTop: 8, border: "none" }}
      />
    </nav>
  );
  const titleBar = (collapsed: boolean) => (
    <div
      style={{
        height: 64,
        display: "flex",
        alignItems: "center",
        justifyContent: collapsed ? "center" : "flex-start",
        padding: collapsed ? 0 : "0 16px",
        background: token.colorBgElevated,
      }}
    >
      <PortalTitle collapsed={collapsed} />
    </div>
  );

  if (isPhone) {
    return (
      <Drawer
        open={mobileMenuOpen}
        onClose={() => setMobileMenuOpen(false)}
        placement="left"
        closable={false}
        width={220}
        styles={{ body: { padding: 0 } }}
      >
        {titleBar(false)}
        {menu}
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      collapsible
      collapsed={siderCollapsed}
      onCollapse={(collapsed, type) => type === "clickTrigger" && setSiderCollapsed(collapsed)}
      collapsedWidth={80}
      breakpoint={subscriber ? "md" : "lg"}
      style={{
        background: token.colorBgContainer,
        borderRight: `1px solid ${token.colorBgElevated}`,
        position: "sticky",
        top: 0,
        height: "100vh",
      }}
      trigger={
        <Button
          type="text"
          aria-label={t(siderCollapsed ? "menu.expand" : "menu.collapse")}
          style={{ borderRadius: 0, height: "100%", width: "100%", background: token.colorBgElevated }}
        >
          {siderCollapsed ? (
            <RightOutlined style={{ color: token.colorPrimary }} />
          ) : (
            <LeftOutlined style={{ color: token.colorPrimary }} />
          )}
        </Button>
      }
    >
      {titleBar(siderCollapsed)}
      {menu}
    </Layout.Sider>
  );
}
