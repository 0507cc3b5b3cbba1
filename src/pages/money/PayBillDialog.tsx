// First: zod without eval and in the page's language (the light pages load this part alone).
import "../../config/zodInTheBrowser";
import { useEffect, useMemo, useState } from "react";
import { useCreate, useCustom, useDelete, useList } from "@refinedev/core";
import { Alert, Button, Form, Input, Modal, Radio, Segmented, Space, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { Invoice } from "../../resources/invoices";
import type { PaymentGateway } from "../../resources/topUps";
import type { PaymentMethod } from "../../resources/paymentMethods";
import type { ApiError } from "../../providers/apiClient";
import { formatMoney } from "../../components/format";
import { useResourceAction } from "../../components/actions/useResourceAction";
import {
  BankError,
  BankInputs,
  CardError,
  CardInputs,
  methodName,
  newKey,
  tokenizeBankAccount,
  tokenizeCard,
  type BankFields,
  type CardFields,
} from "./cards";

type Paid = Invoice & {
  payment: {
    status: "created" | "succeeded" | "failed" | "returned";
    amount: Invoice["total"];
    methodType: "card" | "bank_account";
  };
};
type Values = Partial<CardFields & BankFields> & {
  method?: string;
  newKind?: "card" | "bank_account";
  howMuch?: "all" | "other";
  other?: string;
  reason?: string;
};

const NEW = "new";

/** A radio group named for assistive technology (the form item's aria attributes need its role). */
export const radioGroup = (label: string) => ({ role: "radiogroup", "aria-label": label }) as object;

/** "12.50" → 1250 cents, without floating point; null when it is not an amount. */
export function centsOf(text: string | undefined): number | null {
  const match = /^\s*\$?\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text ?? "");
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/**
 * The subscriber's Pay for one bill: a saved card or bank account, or a new one added in the same
 * dialog (card or US bank account, tokenized at the bill-payment gateway), all that is due or another
 * amount, then the outcome in words ("$120.00 paid. Nothing left to pay." / the bank payment is on its way).
 */
export function PayBillDialog({ bill, open, onClose }: { bill: Invoice; open: boolean; onClose: () => void }) {
  const { result: gateway, query: gatewayQuery } = useCustom<PaymentGateway>({
    url: "/payment-gateway",
    method: "get",
    queryOptions: { enabled: open },
  });
  const { result: saved, query: savedQuery } = useList<PaymentMethod>({
    resource: "payment-methods",
    pagination: { currentPage: 1, pageSize: 20 },
    queryOptions: { enabled: open },
  });
  // The declared Pay (its `when`, reason and confirmation) and the declared payment methods' create.
  const pay = useResourceAction("invoices", "pay", bill);
  const { mutateAsync: createMethod } = useCreate<PaymentMethod>();
  const { mutateAsync: deleteMethod } = useDelete<PaymentMethod>();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const method = Form.useWatch("method", form);
  const newKind = Form.useWatch("newKind", form) ?? "card";
  const howMuch = Form.useWatch("howMuch", form) ?? "all";
  const methods = saved.data;
  const payable = {
    amount: Math.max(0, bill.amountDue.amount - bill.amountPending.amount),
    currency: bill.total.currency,
  };
  const loading = gatewayQuery.isLoading || savedQuery.isLoading;
  const billGateway = gateway.data;
  const canAdd = Boolean(billGateway?.billTokenizeUrl);
  // One request's key, kept across retries of the same choice (a retry never pays twice).
  const key = useMemo(() => newKey(), [open]);

  useEffect(() => {
    if (!open || loading) return;
    // Chosen already (a card added or forgotten in this dialog): the person's choices stay as they are.
    const chosen = form.getFieldValue("method") as string | undefined;
    if (chosen === NEW || methods.some((m) => m.id === chosen)) return;
    const preferred = methods.find((m) => m.isDefault) ?? methods[0];
    form.setFieldsValue({ method: preferred?.id ?? NEW, newKind: "card", howMuch: "all" });
  }, [open, loading, methods.length]);

  const close = () => {
    setDone(undefined);
    setError(undefined);
    form.resetFields();
    onClose();
  };

  async function submit(values: Values) {
    setBusy(true);
    setError(undefined);
    try {
      let amount: number | undefined;
      if (values.howMuch === "other") {
        const cents = centsOf(values.other);
        if (cents === null || cents <= 0 || cents > payable.amount) {
          form.setFields([{ name: "other", errors: [t("pay.amountRule", { max: formatMoney(payable) })] }]);
          return;
        }
        amount = cents;
      }
      let paymentMethodId = values.method;
      let addedNow: string | undefined;
      if (!paymentMethodId || paymentMethodId === NEW) {
        const kind = values.newKind ?? "card";
        const body =
          kind === "bank_account"
            ? {
                bankAccountToken: await tokenizeBankAccount(billGateway.bankAccountTokenizeUrl!, values as BankFields),
                for: "bills",
              }
            : { cardToken: await tokenizeCard(billGateway.billTokenizeUrl!, values as CardFields), for: "bills" };
        const { data: created } = await createMethod({
          resource: "payment-methods",
          values: body,
          meta: { idempotencyKey: newKey() },
          successNotification: false,
          errorNotification: false,
        });
        form.setFieldValue("method", created.id);
        paymentMethodId = created.id;
        addedNow = created.id;
      }
      // The hook reads again everything a payment can change (the bill, the home's next step, the account's money, restored lines).
      const paid = (await pay
        .run(
          { paymentMethodId, ...(amount ? { amount } : {}), reason: values.reason },
          {
            idempotencyKey: `${key}:${paymentMethodId}:${amount ?? "all"}`,
            form,
            fieldNames: { amount: "other", paymentMethodId: "method" },
          },
        )
        .catch(async (failure: ApiError) => {
          // A card or account declined the moment it was added is not kept (nor made the default): the
          // person enters another one, with the bank's answer above the form.
          if (addedNow && failure.statusCode === 422 && failure.errors?.paymentMethodId) {
            await deleteMethod({
              resource: "payment-methods",
              id: addedNow,
              successNotification: false,
              errorNotification: false,
            }).catch(() => undefined);
            form.setFieldValue("method", NEW);
          }
          throw failure;
        })) as Paid;
      const sum = formatMoney(paid.payment.amount);
      if (paid.payment.status === "created")
        setDone(
          t(paid.payment.methodType === "bank_account" ? "pay.done.bankPending" : "pay.done.cardPending", {
            amount: sum,
          }),
        );
      else if (paid.amountDue.amount === 0) setDone(t("pay.done.paid", { amount: sum }));
      else setDone(t("pay.done.partly", { amount: sum, left: formatMoney(paid.amountDue) }));
    } catch (failure) {
      if (failure instanceof CardError) form.setFields([{ name: failure.field, errors: [failure.message] }]);
      else if (failure instanceof BankError) form.setFields([{ name: failure.field, errors: [failure.message] }]);
      else {
        // The hook put field errors at their fields (the amount at "another amount"); the words stay above the form too.
        setError((failure as ApiError).message ?? t("pay.failed"));
      }
    } finally {
      setBusy(false);
    }
  }

  const title = t("pay.title");
  if (done) {
    return (
      <Modal
        open={open}
        title={title}
        onCancel={close}
        footer={
          <Button type="primary" onClick={close}>
            {t("pay.close")}
          </Button>
        }
      >
        <Alert type="success" showIcon role="status" message={done} data-testid="pay-result" />
      </Modal>
    );
  }
  return (
    <Modal open={open} title={title} onCancel={close} footer={null} destroyOnHidden>
      {loading ? null : !canAdd && methods.length === 0 ? (
        <Alert type="info" showIcon role="status" message={t("pay.noCards")} />
      ) : (
        <Form form={form} layout="vertical" noValidate disabled={busy} onFinish={(values) => void submit(values)}>
          <Typography.Paragraph>{t("pay.due", { amount: formatMoney(bill.amountDue) })}</Typography.Paragraph>
          {/* The declared confirmation says what Pay will do. */}
          {pay.confirmText() && <Typography.Paragraph type="secondary">{pay.confirmText()}</Typography.Paragraph>}
          {bill.amountPending.amount > 0 && (
            <Alert
              type="info"
              showIcon
              message={t("pay.onItsWay", { amount: formatMoney(bill.amountPending) })}
              style={{ marginBottom: 12 }}
            />
          )}
          {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 12 }} />}
          <Form.Item name="method" label={t("pay.with")} rules={[{ required: true, message: t("pay.withRule") }]}>
            <Radio.Group {...radioGroup(t("pay.with"))}>
              <Space direction="vertical">
                {methods.map((m) => (
                  <Radio key={m.id} value={m.id}>
                    {methodName(m)}
                  </Radio>
                ))}
                {canAdd && <Radio value={NEW}>{t("pay.addMethod")}</Radio>}
              </Space>
            </Radio.Group>
          </Form.Item>
          {method === NEW && canAdd && (
            <section aria-label={t("pay.addMethod")} data-testid="pay-new-method">
              <Form.Item name="newKind" label={t("pay.kind")}>
                <Segmented<"card" | "bank_account">
                  block
                  options={[
                    { value: "card", label: t("pay.kind.card") },
                    ...(billGateway?.bankAccountTokenizeUrl
                      ? [{ value: "bank_account" as const, label: t("pay.kind.bank") }]
                      : []),
                  ]}
                />
              </Form.Item>
              {newKind === "bank_account" ? <BankInputs prefix="pay-bank" /> : <CardInputs prefix="pay-card" />}
              <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                {t(newKind === "bank_account" ? "pay.bank.privacy" : "topUp.card.privacy")}
              </Typography.Paragraph>
            </section>
          )}
          <Form.Item name="howMuch" label={t("pay.howMuch")}>
            <Radio.Group {...radioGroup(t("pay.howMuch"))}>
              <Space direction="vertical">
                <Radio value="all">{t("pay.all", { amount: formatMoney(payable) })}</Radio>
                <Radio value="other">{t("pay.other")}</Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
          {howMuch === "other" && (
            <Form.Item
              name="other"
              label={t("pay.otherAmount")}
              htmlFor="pay-other-amount"
              rules={[{ required: true, message: t("pay.amountRule", { max: formatMoney(payable) }) }]}
            >
              <Input id="pay-other-amount" inputMode="decimal" prefix="$" placeholder="0.00" />
            </Form.Item>
          )}
          {pay.needsReason && (
            <Form.Item
              name="reason"
              label={t("actions.reason")}
              extra={t("actions.reasonHelp")}
              rules={[{ required: true, whitespace: true, min: 3, message: t("actions.reasonRequired") }]}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} showCount />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy}>
            {howMuch === "other" ? t("pay.submitOther") : t("pay.submit", { amount: formatMoney(payable) })}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
