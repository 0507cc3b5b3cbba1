import { Tag } from "antd";
import { StatusTag, type Tone } from "../../components/StatusTag";
import { slaState, type Ticket } from "../../resources/tickets";
import { translate as t } from "../../i18n";

const TONES = { ok: "good", amber: "warning", red: "bad" } as const satisfies Record<string, Tone>;

/** Time left to the ticket's SLA (or how late it is), good, amber at 75 % of the time, red past it (tones with AA contrast). */
export function SlaTag({ ticket, now }: { ticket: Pick<Ticket, "createdAt" | "slaDueAt">; now: number }) {
  const state = slaState(ticket, now);
  if (state === "stopped") return <Tag>{t("care.sla.stopped")}</Tag>;
  const minutes = Math.round(Math.abs(Date.parse(ticket.slaDueAt!) - now) / 60_000);
  const span =
    minutes >= 60
      ? t("care.sla.hours", { count: Math.floor(minutes / 60), minutes: minutes % 60 })
      : t("care.sla.minutes", { count: minutes });
  return (
    <StatusTag tone={TONES[state]} data-testid="sla" data-sla={state}>
      {state === "red" ? t("care.sla.late", { span }) : t("care.sla.left", { span })}
    </StatusTag>
  );
}
