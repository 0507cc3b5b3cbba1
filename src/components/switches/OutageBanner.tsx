import { useEffect } from "react";
import { Alert } from "antd";
import { startRemoteConfig } from "../../providers/remoteConfig";
import { useFeatureFlags } from "../../providers/useFeatureFlags";

/** Remote Config's `outage_banner`: a notice on every page while it is set. Starts the background fetch after the first render. */
export function OutageBanner() {
  const flags = useFeatureFlags();
  useEffect(() => void startRemoteConfig(), []);
  if (!flags.outage_banner) return null;
  return <Alert type="error" banner showIcon role="status" message={flags.outage_banner} data-testid="outage-banner" />;
}
