import { useState } from "react";
import { useCan, useCustom, useList } from "@refinedev/core";
import { Button, Card, Radio, Space, Typography } from "antd";
import { translate as t } from "../../i18n";
import { accountsResource, type Account } from "../../resources/accounts";
import type { ActionSpec } from "../../resources/define";
import type { Home } from "../../resources/usage";
import { ActionDialog } from "../../components/actions/ActionDialog";
import { formatMsisdn } from "../../components/format";

const redeem = accountsResource.actions!["redeem-voucher"] as ActionSpec;

/**
 * Top up with a prepaid voucher, right on the Top up page: the declared redeem-voucher action of the
 * person's prepaid account, named by its line numbers. With one prepaid account there is nothing to
 * choose; with several, a choice by number.
 */
export function VoucherTopUp() {
  const { result: accounts } = useList<Account>({
    resource: "accounts",
    filters: [{ field: "type", operator: "eq", value: "prepaid" }],
    pagination: { currentPage: 1, pageSize: 20 },
  });
  const { result: home } = useCustom<Home>({ url: "/home", method: "get" });
  const prepaid = accounts?.data ?? [];
  const [picked, setPicked] = useState<string>();
  const [open, setOpen] = useState(false);
  const account = prepaid.find((a) => a.id === picked) ?? prepaid[0];
  const { data: access } = useCan({ resource: "accounts", action: "redeem-voucher", params: { id: account?.id } });
  if (!account || !access?.can) return null;
  const numbersOf = (id: string) =>
    (home.data?.lines ?? [])
      .filter((line) => line.accountId === id)
      .map((line) => formatMsisdn(line.msisdn))
      .join(", ") || t("topUp.voucher.yourAccount");

  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: 18 }}>
          {t("topUp.voucher.title")}
        </Typography.Title>
      }
      data-testid="voucher-top-up"
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Text>{t("topUp.voucher.about")}</Typography.Text>
        {prepaid.length > 1 && (
          <Radio.Group
            aria-label={t("topUp.voucher.which")}
            value={account.id}
            onChange={(e) => setPicked(e.target.value as string)}
          >
            <Space direction="vertical">
              {prepaid.map((a) => (
                <Radio key={a.id} value={a.id}>
                  {numbersOf(a.id)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        )}
        <Button type="primary" size="large" onClick={() => setOpen(true)}>
          {t(redeem.label)}
        </Button>
      </Space>
      <ActionDialog
        resource={accountsResource}
        name="redeem-voucher"
        action={redeem}
        record={account}
        object={numbersOf(account.id)}
        open={open}
        onClose={() => setOpen(false)}
      />
    </Card>
  );
}
