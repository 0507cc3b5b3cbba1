import { useEffect, useSyncExternalStore } from "react";
import { translate as t } from "../../i18n";
import { startRemoteConfig } from "../../providers/remoteConfig";
import { useFeatureFlags } from "../../providers/useFeatureFlags";
import { isReloadRequired, onReloadRequired } from "../../providers/reloadRequired";
import { whenPageDrawn } from "./pageDrawn";

/**
 * The light home's notices, as the portal shows them on every page (ReloadRequiredBanner,
 * OutageBanner): this build is too old for the backend (426), and Remote Config's outage banner.
 */
export function LightBanners() {
  const reload = useSyncExternalStore(onReloadRequired, isReloadRequired, () => false);
  const flags = useFeatureFlags();
  // Remote Config brings Firebase: after the page has drawn its data, not on its way (pageDrawn.ts).
  useEffect(() => whenPageDrawn(() => void startRemoteConfig()), []);
  return (
    <>
      {reload && (
        <div role="alert" className="light-home__banner light-home__banner--warning">
          <strong>{t("switches.reload.title")}</strong> {t("switches.reload.detail")}{" "}
          <button type="button" className="light-home__button" onClick={() => window.location.reload()}>
            {t("switches.reload.button")}
          </button>
        </div>
      )}
      {flags.outage_banner && (
        <p role="status" className="light-home__banner light-home__banner--error" data-testid="outage-banner">
          {flags.outage_banner}
        </p>
      )}
    </>
  );
}
