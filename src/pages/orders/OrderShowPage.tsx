import type { DeclaredResource } from "../declaredResource";
import { useState } from "react";
import { useCan, useGetIdentity, useShow } from "@refinedev/core";
import { Button, Skeleton } from "antd";
import { useParams } from "react-router";
import { translate as t } from "../../i18n";
import { ordersResource, type Order } from "../../resources/orders";
import type { SessionUser } from "../../providers/session";
import { ActionDialog } from "../../components/actions/ActionDialog";
import { FileDownloadButton } from "../../components/FileDownloadButton";
import { actionApplies } from "../../components/actions/RecordActions";
import { formatDateTime, formatMsisdn } from "../../components/format";
import { TONES, toneOfStatus } from "../../components/statusTones";
import { ResourceShowPage } from "../ResourceShowPage";
import { orderSummary, orderTitle, stepBy } from "./orderWords";
import "../subscriber/subscriber.css";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";
import { NotThere } from "../subscriber/NotThere";

/** An order: for its subscriber, what was asked and where it stands, as a timeline in words; for staff, the generic record page. */
export default function OrderShowPage({ resource }: { resource: DeclaredResource }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return <Skeleton active />;
  if (user.role !== "subscriber" || !id) return <ResourceShowPage resource={resource} />;
  return <SubscriberOrder id={id} />;
}

function SubscriberOrder({ id }: { id: string }) {
  const { query, result: order } = useShow<Order>({ resource: "orders", id, errorNotification: drawnWhenNotFound });
  if (query.isError) return <NotThere />;
  if (!order) return <Skeleton active />;
  const summary = orderSummary(order);
  return (
    <div className="sub-page">
      <div className="sub-card__row">
        <h1 className="sub-page__title">{orderTitle(order)}</h1>
        <span className="bill-row__status" style={TONES[toneOfStatus(order.state)]} data-testid="order-state">
          {t(`enums.orderState.${order.state}`)}
        </span>
      </div>
      <section className="sub-card" aria-labelledby="order-what">
        <h2 className="sub-card__title" id="order-what">
          {t("subscriber.order.what")}
        </h2>
        {summary && (
          <p style={{ margin: 0 }} data-testid="order-summary">
            {summary}
          </p>
        )}
        {order.scheduledFor && order.state === "acknowledged" && (
          <p className="sub-card__muted" style={{ margin: 0 }}>
            {t("subscriber.order.scheduledFor", { time: formatDateTime(order.scheduledFor) })}
          </p>
        )}
        {/* The ID an eSIM transfer was made with stays the holder's to download. */}
        {order.idDocumentFileId && (
          <div className="sub-card__actions">
            <FileDownloadButton fileId={order.idDocumentFileId} text={t("fields.orderIdDocument")} />
          </div>
        )}
        {order.state === "pending" && order.type === "port_in" && (
          <p style={{ margin: 0 }} data-testid="order-port-in-refused">
            {t("subscriber.order.portInRefused")}
          </p>
        )}
        <OrderAction order={order} name="resubmit-port-in" />
        <OrderAction order={order} name="cancel" />
      </section>
      <section className="sub-card" aria-labelledby="order-timeline">
        <h2 className="sub-card__title" id="order-timeline">
          {t("subscriber.order.timeline")}
        </h2>
        <ol className="order-timeline" data-testid="order-timeline">
          {order.timeline.map((step, i) => (
            <li key={i} className={`order-timeline__step order-timeline__step--${toneOfStatus(step.state)}`}>
              <strong>{t(`enums.orderState.${step.state}`)}</strong>
              <span className="sub-card__muted">
                {formatDateTime(step.at)} · {stepBy(step.byRole)}
              </span>
              {/* The system's words for a step (why the exchange refused a port-in); staff's free-text notes stay theirs. */}
              {step.note && t(step.note, undefined, "") && <span>{t(step.note, undefined, "")}</span>}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/**
 * A declared action of the order, offered while its `when` holds and only to a person who may run it:
 * `cancel` before the order starts, `resubmit-port-in` once the exchange refused a port-in.
 */
function OrderAction({ order, name }: { order: Order; name: "cancel" | "resubmit-port-in" }) {
  const action = ordersResource.actions![name]!;
  const { data: access } = useCan({ resource: "orders", action: name, params: { id: order.id } });
  const [open, setOpen] = useState(false);
  if (!access?.can || !actionApplies(action, order)) return null;
  return (
    <div className="sub-card__actions">
      <Button danger={action.danger} type={action.danger ? "default" : "primary"} onClick={() => setOpen(true)}>
        {t(action.label)}
      </Button>
      <ActionDialog
        resource={ordersResource}
        name={name}
        action={action}
        record={order}
        object={order.msisdn ? formatMsisdn(order.msisdn) : undefined}
        open={open}
        onClose={() => setOpen(false)}
      />
    </div>
  );
}
