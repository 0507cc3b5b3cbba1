import { useGetIdentity } from "@refinedev/core";
import { Space } from "antd";
import { PageTitle } from "../../components/PageTitle";
import type { SessionUser } from "../../providers/session";
import { translate as t } from "../../i18n";
import { ConsentCard } from "./ConsentCard";
import { ProfileDetailsCard } from "./ProfileDetailsCard";
import { PrivacySection } from "./PrivacySection";
import { AccessLogCard } from "./AccessLogCard";
import { NotificationPreferencesCard } from "../../components/preferences/NotificationPreferencesCard";

/** The signed-in person's profile, phone first (360 px): preferences, privacy choices and, for a subscriber, who of our staff looked at their account. */
export function ProfilePage() {
  const { data: user } = useGetIdentity<SessionUser>();
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 720 }}>
      <PageTitle>{t("profile.title")}</PageTitle>
      <ProfileDetailsCard />
      <NotificationPreferencesCard />
      <ConsentCard />
      {user?.role === "subscriber" && <AccessLogCard />}
      <PrivacySection />
    </Space>
  );
}
