import { TAB_BAR_MEDIA } from "../../components/layout/destinations";

/** Where a subscriber's portal has the bottom tab bar and no sider: the phone frame the light home draws. */
export const LIGHT_HOME_MEDIA = TAB_BAR_MEDIA;
