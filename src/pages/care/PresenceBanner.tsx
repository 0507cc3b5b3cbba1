import { Alert } from "antd";
import { TeamOutlined } from "@ant-design/icons";
import { getLocale, translate as t } from "../../i18n";
import type { PresentViewer } from "../../providers/rtdb/presence";
import { presencePlace, type PresencePlaceKind } from "../../resources/presence";
import { usePresence, type PresenceSource } from "./usePresence";

/** "Maria is also here", "Maria and Ken are also here": the names as a list of the reader's language, the verb by its plural rules. */
export function alsoHereText(names: readonly string[]): string {
  const locale = getLocale();
  const list = new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(names);
  const form = new Intl.PluralRules(locale).select(names.length);
  const key = `presence.alsoHere.${form}`;
  return t(key, { names: list }, t("presence.alsoHere.other", { names: list }));
}

/** The notice itself: nothing while nobody else is here. */
export function PresenceNotice({ others }: { others: readonly PresentViewer[] }) {
  if (others.length === 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      icon={<TeamOutlined />}
      role="status"
      data-testid="presence-banner"
      message={alsoHereText(others.map((o) => o.name))}
    />
  );
}

/**
 * Tells staff who else has this subscriber or ticket open right now, before two of them answer one
 * caller. Shows nothing to subscribers, nor where the build has no Realtime Database.
 */
export function PresenceBanner({ kind, id, source }: { kind: PresencePlaceKind; id: string; source?: PresenceSource }) {
  return <PresenceNotice others={usePresence(presencePlace(kind, id), source)} />;
}
