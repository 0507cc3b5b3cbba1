import { useList } from "@refinedev/core";
import { Alert, Card, Input, Space, Table, Typography } from "antd";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Subscriber } from "../../resources/subscribers";
import { translate as t } from "../../i18n";
import { formatMsisdn } from "../../components/format";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { groupByPerson, type PersonResult } from "./groupByPerson";

const PAGE_SIZE = 20;

/** One account of a person found: its kind and state, and the lines the search matched (each opens its line page). */
function AccountMatch({ account }: { account: Subscriber }) {
  return (
    <Space wrap size={4} data-testid="result-account">
      <Typography.Text strong>{t(`enums.accountType.${account.type}`)}</Typography.Text>
      {account.status !== "active" && (
        <StatusTag tone={toneOfStatus(account.status)}>{t(`enums.status.${account.status}`)}</StatusTag>
      )}
      {account.lines.map((line) => (
        <Link key={line.id} to={`/lines/show/${line.id}`}>
          <StatusTag tone={toneOfStatus(line.status)}>
            {formatMsisdn(line.msisdn)} · {t(`enums.status.${line.status}`)}
          </StatusTag>
        </Link>
      ))}
      {account.lineCount > account.lines.length && (
        <Typography.Text type="secondary">
          {t("care.search.moreLines", { count: account.lineCount - account.lines.length })}
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * The care desk's one search box: any part of a number, a name with typos, an email, an ICCID, an
 * account, line or order id; the staff home's box lands here too. One row per person with their
 * accounts and the lines that matched (a number opens its line); the name opens the person's 360.
 * The query lives in the address (?q=) so a search can be shared and survives a reload.
 */
export default function SubscriberSearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [page, setPage] = useState(1);
  const { result, query } = useList<Subscriber>({
    resource: "subscribers",
    filters: q ? [{ field: "q", operator: "eq", value: q }] : [],
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
    queryOptions: { enabled: q.length > 0, retry: false },
  });
  const error = query.error as { message?: string } | null;

  return (
    <Card
      title={
        <Typography.Title level={1} style={{ margin: 0, fontSize: 20 }}>
          {t("care.search.title")}
        </Typography.Title>
      }
    >
      <Space direction="vertical" style={{ width: "100%" }} size="middle">
        <Input.Search
          aria-label={t("care.search.label")}
          placeholder={t("resources.subscribers.search")}
          defaultValue={q}
          allowClear
          enterButton={t("care.search.button")}
          size="large"
          // eslint-disable-next-line jsx-a11y/no-autofocus -- finding a subscriber is this page's only job: agents type at once
          autoFocus
          onSearch={(value) => {
            setPage(1);
            setParams(value.trim() ? { q: value.trim() } : {});
          }}
        />
        {query.isError && (
          <Alert type="error" showIcon role="alert" message={error?.message ?? t("care.search.failed")} />
        )}
        {q && !query.isError && (
          <Table<PersonResult>
            rowKey="personId"
            loading={query.isFetching}
            dataSource={groupByPerson(result?.data ?? [])}
            locale={{ emptyText: t("care.search.none", { q }) }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: result?.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
            columns={[
              {
                title: t("fields.accountName"),
                key: "name",
                render: (_: unknown, person) => (
                  <Link to={`/subscribers/show/${person.first.id}`} data-testid="subscriber-result">
                    {person.first.name}
                  </Link>
                ),
              },
              { title: t("fields.email"), key: "email", render: (_: unknown, person) => person.first.email ?? "—" },
              {
                title: t("care.search.accounts"),
                key: "accounts",
                render: (_: unknown, person) => (
                  <Space direction="vertical" size={4}>
                    {person.accounts.map((account) => (
                      <AccountMatch key={account.id} account={account} />
                    ))}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
