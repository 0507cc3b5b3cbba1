import { useSyncExternalStore } from "react";
import { Alert, Button } from "antd";
import { translate as t } from "../../i18n";
import { isReloadRequired, onReloadRequired } from "../../providers/reloadRequired";

/** Shown once the backend answered 426: this build is older than it accepts, a reload gets the new one. */
export function ReloadRequiredBanner() {
  const required = useSyncExternalStore(onReloadRequired, isReloadRequired, () => false);
  if (!required) return null;
  return (
    <Alert
      role="alert"
      type="warning"
      banner
      showIcon
      message={t("switches.reload.title")}
      description={t("switches.reload.detail")}
      action={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t("switches.reload.button")}
        </Button>
      }
      style={{ position: "sticky", top: 0, zIndex: 1000 }}
    />
  );
}
