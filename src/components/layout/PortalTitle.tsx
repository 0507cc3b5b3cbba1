import { Link } from "@refinedev/core";
import { theme } from "antd";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import { MobileOutlined } from "@ant-design/icons";

const brand = brandOf(runtimeConfig.operator);

/** The operator's name and mark, linking home; only the mark when the sider is collapsed. */
export function PortalTitle({ collapsed }: { collapsed: boolean }) {
  const { token } = theme.useToken();
  return (
    <Link
      to="/"
      aria-label={collapsed ? brand.name : undefined}
      style={{
        display: "flex",
        alignItems: "center",
        gap: 8,
        textDecoration: "none",
        color: token.colorText,
        fontWeight: 700,
      }}
    >
      <span aria-hidden style={{ color: token.colorPrimary, fontSize: 20, lineHeight: 1 }}>
        <MobileOutlined />
      </span>
      {!collapsed && <span>{brand.name}</span>}
    </Link>
  );
}
