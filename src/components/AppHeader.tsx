import { useGetIdentity, useLogout } from "@refinedev/core";
import { Button, Layout, Space, Tag, Typography, Grid, theme } from "antd";
import { LogoutOutlined, MenuOutlined } from "@ant-design/icons";
import { getLocale, LOCALES, setLocale, translate as t, type Locale } from "../i18n";
import type { SessionUser } from "../providers/session";
import { NotificationBell } from "./NotificationBell";
import { useLayout } from "./layout/layoutContext";
import { PortalTitle } from "./layout/PortalTitle";

/** Top bar: who is signed in (and as which role), the language, and sign-out. */
export function AppHeader() {
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: logout } = useLogout();
  const screens = Grid.useBreakpoint();
  const { setMobileMenuOpen } = useLayout();
  const { token } = theme.useToken();
  return (
    <Layout.Header
      style={{
        display: "flex",
        justifyContent: "space-between",
        alignItems: "center",
        gap: 12,
        padding: "0 16px",
        background: "#fff",
        position: "sticky",
        top: 0,
        zIndex: 10,
      }}
    >
      {user?.role === "subscriber" ? (
        // Subscribers navigate by the tab bar (phone) or the short sider: the header names the operator on a phone.
        screens.md ? (
          <span />
        ) : (
          <PortalTitle collapsed={false} />
        )
      ) : screens.lg ? (
        <span />
      ) : (
        <Button icon={<MenuOutlined />} aria-label={t("menu.open")} onClick={() => setMobileMenuOpen(true)} />
      )}
      <Space size="small" wrap={false}>
        {user && screens.sm && (
          <Typography.Text strong data-testid="signed-in-user">
            {user.name}
          </Typography.Text>
        )}
        {/* Staff see which role they act in; a subscriber is never anything else, and a badge saying so is noise on a phone. */}
        {user?.role && user.role !== "subscriber" && <Tag color="purple">{t(`roles.${user.role}`)}</Tag>}
        {user?.role && <NotificationBell />}
        {/* A native select, as on the sign-in page: light, and a phone shows its own picker. */}
        <select
          aria-label={t("language.label")}
          value={getLocale()}
          onChange={(event) => setLocale(event.target.value as Locale)}
          style={{
            height: 24,
            padding: "0 4px",
            border: `1px solid ${token.colorBorder}`,
            borderRadius: token.borderRadiusSM,
            background: token.colorBgContainer,
            color: token.colorText,
            font: "inherit",
          }}
        >
          {LOCALES.map((l) => (
            // Each language named in itself, and marked so (a screen reader says "Español" in Spanish).
            <option key={l} value={l} lang={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
        <Button icon={<LogoutOutlined />} onClick={() => logout()} aria-label={t("auth.signOut")}>
          {screens.sm ? t("auth.signOut") : null}
        </Button>
      </Space>
    </Layout.Header>
  );
}
