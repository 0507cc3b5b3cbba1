import { useOne } from "@refinedev/core";
import { Button, Descriptions, Space, Typography } from "antd";
import { useState } from "react";
import { accountsResource, type Account } from "../../../resources/accounts";
import { invoicesResource, type Invoice } from "../../../resources/invoices";
import { ledgerEntriesResource, type LedgerEntry } from "../../../resources/ledgerEntries";
import type { Subscriber } from "../../../resources/subscribers";
import { downloadFromApi } from "../../../providers/download";
import { translate as t } from "../../../i18n";
import { FieldValue } from "../../../components/FieldValue";
import { declaredColumns, PagedSection } from "./PagedSection";

/** An invoice's PDF (GET /invoices/{id}/pdf), fetched with the agent's token. */
function InvoicePdf({ invoice }: { invoice: Invoice }) {
  const [failed, setFailed] = useState(false);
  return (
    <Space size={4}>
      <Button
        type="link"
        size="small"
        style={{ padding: 0 }}
        aria-label={t("care.money.pdfOf", { number: invoice.number })}
        onClick={() => {
          setFailed(false);
          downloadFromApi(`/invoices/${invoice.id}/pdf`, `${invoice.number}.pdf`).catch(() => setFailed(true));
        }}
      >
        PDF
      </Button>
      {failed && (
        <Typography.Text type="danger" role="alert">
          {t("care.sections.failed")}
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * Money: the balance (prepaid) or amount due (postpaid) from the account, then its bills with their
 * PDFs and its ledger entries, newest first, each paged on its own.
 */
export function MoneySection({ subscriber }: { subscriber: Subscriber }) {
  const { result: account } = useOne<Account>({ resource: "accounts", id: subscriber.id });
  const byAccount = [{ field: "accountId", operator: "eq" as const, value: subscriber.id }];
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="money-section">
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
        <Descriptions.Item label={t("fields.balance")}>
          <span data-testid="account-balance">
            {account ? <FieldValue name="balance" spec={accountsResource.fields.balance} record={account} /> : "…"}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.amountDue")}>
          <span data-testid="account-amount-due">
            {account ? <FieldValue name="amountDue" spec={accountsResource.fields.amountDue} record={account} /> : "…"}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
        {t("care.money.bills")}
      </Typography.Title>
      <PagedSection<Invoice>
        testId="section-invoices"
        source={{ resource: "invoices", filters: byAccount, sorters: [{ field: "issuedAt", order: "desc" }] }}
        columns={[
          ...declaredColumns<Invoice>(invoicesResource, ["number", "periodEnd", "total", "dueOn", "status"]),
          { key: "pdf", title: t("care.money.pdf"), render: (_: unknown, invoice) => <InvoicePdf invoice={invoice} /> },
        ]}
      />
      <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
        {t("care.money.ledger")}
      </Typography.Title>
      <PagedSection<LedgerEntry>
        testId="section-ledger"
        source={{ resource: "ledger-entries", filters: byAccount, sorters: [{ field: "createdAt", order: "desc" }] }}
        columns={declaredColumns<LedgerEntry>(ledgerEntriesResource, [
          "createdAt",
          "kind",
          "amount",
          "balanceAfter",
          "reason",
        ])}
      />
    </Space>
  );
}
