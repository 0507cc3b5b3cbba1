import { Space, Typography } from "antd";
import { translate as t } from "../../i18n";
import { ConsentCard } from "./ConsentCard";
import { ProfileDetailsCard } from "./ProfileDetailsCard";
import { PrivacySection } from "./PrivacySection";
import { NotificationPreferencesCard } from "../../components/preferences/NotificationPreferencesCard";

/** The signed-in person's profile, phone first (360 px): preferences and privacy choices. */
export function ProfilePage() {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 720 }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t("profile.title")}
      </Typography.Title>
      <ProfileDetailsCard />
      <NotificationPreferencesCard />
      <ConsentCard />
      <PrivacySection />
    </Space>
  );
}
