import { useList } from "@refinedev/core";
import { Alert, Card, Input, Space, Table, Typography } from "antd";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Subscriber } from "../../resources/subscribers";
import { translate as t } from "../../i18n";
import { formatMsisdn } from "../../components/format";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";

const PAGE_SIZE = 20;

/**
 * The care desk's one search box: any part of a number, a name with typos, an email, an ICCID, an
 * account, line or order id. One row per account with the lines that matched; the name opens the 360.
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
        <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
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
          <Table<Subscriber>
            rowKey="id"
            loading={query.isFetching}
            dataSource={result?.data ?? []}
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
                dataIndex: "name",
                render: (name: string, row) => (
                  <Link to={`/subscribers/show/${row.id}`} data-testid="subscriber-result">
                    {name}
                  </Link>
                ),
              },
              { title: t("fields.email"), dataIndex: "email", render: (email: string | null) => email ?? "—" },
              {
                title: t("fields.accountType"),
                dataIndex: "type",
                render: (type: string) => t(`enums.accountType.${type}`),
              },
              {
                title: t("care.search.lines"),
                dataIndex: "lines",
                render: (lines: Subscriber["lines"], row) => (
                  <Space wrap size={4}>
                    {lines.map((line) => (
                      <StatusTag key={line.id} tone={toneOfStatus(line.status)}>
                        {formatMsisdn(line.msisdn)} · {t(`enums.status.${line.status}`)}
                      </StatusTag>
                    ))}
                    {row.lineCount > lines.length && (
                      <Typography.Text type="secondary">
                        {t("care.search.moreLines", { count: row.lineCount - lines.length })}
                      </Typography.Text>
                    )}
                  </Space>
                ),
              },
              {
                title: t("fields.status"),
                dataIndex: "status",
                render: (status: string) => (
                  <StatusTag tone={toneOfStatus(status)}>{t(`enums.status.${status}`)}</StatusTag>
                ),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
