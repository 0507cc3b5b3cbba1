// Plain data (no antd): the light home's line cards and the subscriber's line page say it alike.
import { translate as t } from "../../i18n";
import { formatDate } from "../../components/format";
import { toneOfStatus, type Tone } from "../../components/statusTones";

/**
 * How a line stands, in words and a tone: its status, and while a cancellation is scheduled the day
 * it ends (warning), so a line on its way out never reads as a plain "Active". A line that is not
 * active keeps its own state in front ("Suspended · Cancels on Dec 12, 2026").
 */
export function lineStatusBadge(line: { status: string; cancelsOn?: string | null }): { text: string; tone: Tone } {
  const status = t(`enums.status.${line.status}`, undefined, line.status);
  if (!line.cancelsOn || line.status === "terminated") return { text: status, tone: toneOfStatus(line.status) };
  const cancels = t("lines.cancelsOn", { date: formatDate(line.cancelsOn) });
  return { text: line.status === "active" ? cancels : `${status} · ${cancels}`, tone: "warning" };
}
