import { useList, useOne } from "@refinedev/core";
import { Alert, Space } from "antd";
import { useParams } from "react-router";
import type { Subscriber } from "../../resources/subscribers";
import { translate as t } from "../../i18n";
import { AccountSections } from "./person/AccountSections";
import { InteractionNotes } from "./person/InteractionNotes";
import { PersonHead } from "./person/PersonHead";
import { PresenceBanner } from "./PresenceBanner";
import { CallerVerification, useCallerLocked } from "./sections/CallerVerification";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";

/** More accounts than one person holds in practice; the 360 shows them all on one page. */
const MAX_ACCOUNTS = 50;

/**
 * Everything about one person on one page, for staff at desk width. The route names one account (the
 * one found by the search); the page shows its holder: the person up top, their interaction notes,
 * then every account they hold, each with its sections (lines, tickets, money…) loading their own
 * data when opened. Actions taken from a section ask for a reason and notify the holder.
 */
export default function Subscriber360Page() {
  const { id = "" } = useParams();
  const { result: subscriber, query } = useOne<Subscriber>({
    resource: "subscribers",
    id,
    errorNotification: drawnWhenNotFound,
  });
  const personId = subscriber?.personId;
  const { result: held, query: heldQuery } = useList<Subscriber>({
    resource: "subscribers",
    filters: [{ field: "personId", operator: "eq", value: personId }],
    sorters: [{ field: "createdAt", order: "asc" }],
    pagination: { currentPage: 1, pageSize: MAX_ACCOUNTS },
    queryOptions: { enabled: Boolean(personId) },
  });
  const callerLocked = useCallerLocked(subscriber);
  if (query.isError) return <Alert type="error" showIcon message={t("show.notFound")} />;
  // The opened account first is not needed: accounts keep their order; until the list answers, the opened one alone.
  const accounts = held?.data?.length ? held.data : subscriber ? [subscriber] : [];
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <PresenceBanner kind="subscriber" id={id} />
      <PersonHead subscriber={subscriber} accounts={accounts} loading={query.isLoading} />
      {subscriber && (
        <CallerVerification
          subscriber={subscriber}
          onChanged={() => void Promise.all([query.refetch(), heldQuery.refetch()])}
        />
      )}
      {subscriber && <InteractionNotes personId={subscriber.personId} subscriberId={subscriber.id} />}
      {accounts.map((account) => (
        <AccountSections
          key={account.id}
          account={account}
          opened={accounts.length > 1 && account.id === id}
          callerLocked={callerLocked}
        />
      ))}
    </Space>
  );
}
