/** Below antd's `lg` breakpoint the portal has no sider: its phone frame is what the light home draws. */
export const LIGHT_HOME_MEDIA = "(max-width: 991.98px)";
