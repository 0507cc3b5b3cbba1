import { useGetIdentity, useLogout } from "@refinedev/core";
import { useThemedLayoutContext } from "@refinedev/antd";
import { Button, Layout, Select, Space, Tag, Typography, Grid } from "antd";
import { LogoutOutlined, MenuOutlined } from "@ant-design/icons";
import { getLocale, LOCALES, setLocale, translate as t, type Locale } from "../i18n";
import type { SessionUser } from "../providers/session";
import { NotificationBell } from "./NotificationBell";

/** Top bar: who is signed in (and as which role), the language, and sign-out. */
export function AppHeader() {
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: logout } = useLogout();
  const screens = Grid.useBreakpoint();
  const { setMobileSiderOpen } = useThemedLayoutContext();
  return (
    <Layout.Header
      style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 12, padding: "0 16px", background: "#fff", position: "sticky", top: 0, zIndex: 10 }}
    >
      {screens.lg ? <span /> : <Button icon={<MenuOutlined />} aria-label={t("menu.open")} onClick={() => setMobileSiderOpen(true)} />}
      <Space size="small" wrap={false}>
        {user && screens.sm && <Typography.Text strong data-testid="signed-in-user">{user.name}</Typography.Text>}
        {user?.role && <Tag color={user.role === "subscriber" ? "blue" : "purple"}>{t(`roles.${user.role}`)}</Tag>}
        {user?.role && <NotificationBell />}
        <Select<Locale>
          aria-label={t("language.label")}
          size="small"
          value={getLocale()}
          onChange={(locale) => setLocale(locale)}
          options={LOCALES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
          style={{ width: 100 }}
        />
        <Button icon={<LogoutOutlined />} onClick={() => logout()} aria-label={t("auth.signOut")}>
          {screens.sm ? t("auth.signOut") : null}
        </Button>
      </Space>
    </Layout.Header>
  );
}
