import { useState } from "react";
import { useCan, useCustom, useShow } from "@refinedev/core";
import { Button, Skeleton } from "antd";
import { useNavigate } from "react-router";
import RightOutlined from "@ant-design/icons-svg/es/asn/RightOutlined";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import { linesResource, type Line } from "../../resources/lines";
import type { ActionSpec } from "../../resources/define";
import type { Meter } from "../../resources/usage";
import { ActionDialog } from "../../components/actions/ActionDialog";
import { actionApplies } from "../../components/actions/RecordActions";
import { formatDate, formatDateTime, formatMsisdn } from "../../components/format";
import { SvgIcon } from "../../components/SvgIcon";
import { TONES } from "../../components/statusTones";
import { LineMeters } from "../../components/usage/LineMeters";
import { LineAddOns } from "../../components/addOns/LineAddOns";
import { SharedPool } from "../../components/usage/SharedPool";
import { LineOrders } from "./LineOrders";
import { lineStatusBadge } from "./lineStatus";
import "../subscriber/subscriber.css";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";
import { NotThere } from "../subscriber/NotThere";

/** Actions the page offers elsewhere: plans and passes in Shop, renewals on the add-on itself. */
const ELSEWHERE = new Set(["change-plan", "buy-add-on", "stop-add-on-renewal"]);
const DAY = 86_400_000;

/**
 * A subscriber's line as a page of their own, not a field table: its meters, its plan, its SIM and
 * add-ons, then "Manage": each declared action the line allows, with one sentence of what it does.
 * Staff keep the generic record page.
 */
export function SubscriberLinePage({ id }: { id: string }) {
  const navigate = useNavigate();
  const { query, result: line } = useShow<Line>({ resource: "lines", id, errorNotification: drawnWhenNotFound });
  // Not `result.data`: refine gives an empty object there until the answer (an array) arrives.
  const { query: metersQuery } = useCustom<Meter[]>({
    url: `/lines/${id}/meters`,
    method: "get",
    errorNotification: drawnWhenNotFound,
  });
  const meters = metersQuery.data?.data;
  // The clock as the page opened: days left and the PIN's validity are read against it.
  const [now] = useState(() => Date.now());
  if (query.isError) return <NotThere />;
  if (!line) return <Skeleton active />;
  const number = formatMsisdn(line.msisdn);
  const badge = lineStatusBadge(line);
  const cycleEnd = meters?.[0]?.cycleEnd;
  const daysLeft = cycleEnd ? Math.max(0, Math.ceil((Date.parse(`${cycleEnd}T00:00:00Z`) - now) / DAY)) : 0;
  return (
    <div className="sub-page">
      <div className="sub-card__row">
        <h1 className="sub-page__title">{number}</h1>
        <span className="status-badge" style={TONES[badge.tone]} data-testid="line-status">
          {badge.text}
        </span>
      </div>
      {line.cancelsOn && line.status !== "terminated" && (
        // Manage below offers "Keep this line" instead of "Cancel line" (the declarations' `when`).
        <p className="sub-card__muted" style={{ margin: 0 }} data-testid="line-cancels-on">
          {t("subscriber.line.cancelsOn")}
        </p>
      )}
      {line.status === "suspended" && line.suspendReason && (
        <p className="sub-card__muted" style={{ margin: 0 }}>
          {t(
            line.suspendReason === "non_payment" && line.accountType === "prepaid"
              ? "subscriber.line.suspended.renewalUnpaid"
              : `subscriber.line.suspended.${line.suspendReason}`,
          )}
        </p>
      )}
      {line.status === "grace" && line.graceEndsOn && (
        <p className="sub-card__muted" style={{ margin: 0 }} data-testid="line-grace">
          {t("subscriber.line.grace", { date: formatDate(line.graceEndsOn) })}
        </p>
      )}
      <section className="sub-card" aria-labelledby="line-usage">
        <h2 className="sub-card__title" id="line-usage">
          {t("subscriber.line.usage")}
        </h2>
        {line.status === "grace" ? (
          // A plan that has not renewed has no allowance: "816 MB of 0 MB" bars would only confuse.
          <p style={{ margin: 0 }} data-testid="line-grace-usage">
            {t("subscriber.line.graceUsage")}
          </p>
        ) : meters ? (
          <LineMeters
            meters={meters}
            daysLeft={daysLeft}
            lineId={line.id}
            navigate={(to) => void navigate(to)}
            cancelsOn={line.cancelsOn}
          />
        ) : (
          <Skeleton active />
        )}
      </section>
      <SharedPool accountId={line.accountId} lineId={line.id} />
      <section className="sub-card" aria-labelledby="line-plan">
        <h2 className="sub-card__title" id="line-plan">
          {t("subscriber.line.plan")}
        </h2>
        <div className="sub-card__row">
          <strong>{catalogName({ name: line.planName, translations: line.planTranslations })}</strong>
          <Button onClick={() => void navigate(`/shop?line=${line.id}`)}>{t("subscriber.line.changePlan")}</Button>
        </div>
      </section>
      <section className="sub-card" aria-labelledby="line-sim">
        <h2 className="sub-card__title" id="line-sim">
          {t("subscriber.line.sim")}
        </h2>
        <p style={{ margin: 0 }} data-testid="sim-type">
          {line.iccid
            ? t(line.simType === "esim" ? "subscriber.line.esim" : "subscriber.line.physical", {
                last4: line.iccid.slice(-4),
              })
            : t("subscriber.line.simOnItsWay")}
        </p>
        <p className="sub-card__muted" style={{ margin: 0 }} data-testid="number-lock">
          {t(line.numberLocked ? "subscriber.line.locked" : "subscriber.line.unlocked")}
        </p>
        {line.portOutPinExpiresAt && Date.parse(line.portOutPinExpiresAt) > now && (
          <p className="sub-card__muted" style={{ margin: 0 }} data-testid="pin-valid-until">
            {t("subscriber.line.pinValidUntil", { time: formatDateTime(line.portOutPinExpiresAt) })}
          </p>
        )}
      </section>
      <LineAddOns line={line} offersPasses={false} />
      <Manage line={line} number={number} />
      <LineOrders lineId={line.id} />
    </div>
  );
}

function Manage({ line, number }: { line: Line; number: string }) {
  const actions = Object.entries<ActionSpec>(linesResource.actions ?? {}).filter(
    ([name, action]) => !ELSEWHERE.has(name) && actionApplies(action, line),
  );
  return (
    <section className="sub-card" aria-labelledby="line-manage">
      <h2 className="sub-card__title" id="line-manage">
        {t("subscriber.line.manage")}
      </h2>
      <ul className="task-list">
        {actions.map(([name, action]) => (
          <ManageEntry key={name} name={name} action={action} line={line} number={number} />
        ))}
      </ul>
    </section>
  );
}

/** One declared action as a row: its name and one sentence, opening its dialog (only when the person may run it). */
function ManageEntry({ name, action, line, number }: { name: string; action: ActionSpec; line: Line; number: string }) {
  const { data: access } = useCan({ resource: "lines", action: name, params: { id: line.id } });
  const [open, setOpen] = useState(false);
  if (!access?.can) return null;
  return (
    <li>
      <button type="button" className="task-list__item task-list__button" onClick={() => setOpen(true)}>
        <span className="task-list__text">
          <strong style={action.danger ? { color: "#a8071a" } : undefined}>{t(action.label)}</strong>
          {action.about && <span className="task-list__about">{t(action.about)}</span>}
        </span>
        <SvgIcon icon={RightOutlined} />
      </button>
      <ActionDialog
        resource={linesResource}
        name={name}
        action={action}
        record={line}
        object={number}
        open={open}
        onClose={() => setOpen(false)}
      />
    </li>
  );
}
