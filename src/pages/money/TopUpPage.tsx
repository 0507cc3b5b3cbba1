import { useEffect, useState, type ReactNode } from "react";
import { useCreate, useCustom, useDelete, useInvalidate, useList } from "@refinedev/core";
import { Alert, Button, Card, Checkbox, Form, List, Popconfirm, Radio, Skeleton, Space, Tag, Typography } from "antd";
import { FormSelect } from "../../components/FieldInput";
import { translate as t } from "../../i18n";
import type { Account } from "../../resources/accounts";
import type { Money } from "../../resources/common";
import type { PaymentGateway, TopUp } from "../../resources/topUps";
import type { PaymentMethod } from "../../resources/paymentMethods";
import { useResourceAction } from "../../components/actions/useResourceAction";
import { formatDateTime, formatMoney } from "../../components/format";
import { MoneyInput } from "../../components/MoneyInput";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { useFeatureFlag } from "../../providers/useFeatureFlags";
import { ActionDialog } from "../../components/actions/ActionDialog";
import { VoucherTopUp } from "./VoucherTopUp";
import { CardError, CardInputs, methodName, newKey, tokenizeCard, type CardFields } from "./cards";

/**
 * Top up a prepaid balance, phone first (360 px). Where the operator's top-up payment setting is
 * empty (ATT) the page says card top-up is unavailable and sends the subscriber to vouchers. Where
 * it names a gateway this backend is wired to (the sandbox), a card form posts the card to the
 * gateway's tokenizer — never to our API — and creates the top-up with the token; below it, the
 * subscriber's top-ups with their state and time of last change, and their saved cards. While
 * Remote Config's `card_top_up_enabled` is off, the page says card top-up is turned off for now and
 * sends the subscriber to vouchers (the backend refuses card top-ups then too); their top-ups stay
 * listed, so a refund can still be claimed.
 * `gateway` forces the setting (tests); otherwise the backend says which applies.
 */
export function TopUpPage({ gateway }: { gateway?: string }) {
  if (gateway === "") return <Unavailable />;
  return <GatewayTopUp />;
}

/** No card top-up here: the operator takes none ("unavailable"), or Remote Config turned it off for now ("turnedOff"). */
function Unavailable({ why = "unavailable", children }: { why?: "unavailable" | "turnedOff"; children?: ReactNode }) {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 720 }} data-gateway="none">
      <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
        {t("topUp.title")}
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        role="status"
        data-testid={why === "turnedOff" ? "top-up-turned-off" : "top-up-unavailable"}
        message={t(`topUp.${why}.title`)}
        description={t(`topUp.${why}.body`)}
      />
      <VoucherTopUp />
      {children}
    </Space>
  );
}

function GatewayTopUp() {
  const { query, result } = useCustom<PaymentGateway>({ url: "/payment-gateway", method: "get" });
  const cardTopUpEnabled = useFeatureFlag("card_top_up_enabled");
  if (query.isLoading) return <Skeleton active />;
  const gateway = result?.data;
  if (!gateway?.tokenizeUrl) return <Unavailable />;
  if (!cardTopUpEnabled) {
    return (
      <Unavailable why="turnedOff">
        <TopUpHistory />
      </Unavailable>
    );
  }
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 720 }} data-gateway={gateway.gateway}>
      <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
        {t("topUp.title")}
      </Typography.Title>
      <CardTopUpForm tokenizeUrl={gateway.tokenizeUrl} />
      <VoucherTopUp />
      <TopUpHistory />
      <SavedCards tokenizeUrl={gateway.tokenizeUrl} />
    </Space>
  );
}

/** What the card top-up form holds when it is sent. */
type CardTopUpValues = CardFields & { accountId: string; amount: Money; source: string; save?: boolean };

function CardTopUpForm({ tokenizeUrl }: { tokenizeUrl: string }) {
  const [form] = Form.useForm<CardTopUpValues>();
  const invalidate = useInvalidate();
  const { mutateAsync: create } = useCreate();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ type: "success" | "error" | "info"; text: string } | null>(null);
  const { result: accounts } = useList<Account>({
    resource: "accounts",
    filters: [{ field: "type", operator: "eq", value: "prepaid" }],
    pagination: { currentPage: 1, pageSize: 20 },
  });
  // Top-ups take cards only (bank accounts pay bills).
  const { result: methods } = useList<PaymentMethod>({
    resource: "payment-methods",
    pagination: { currentPage: 1, pageSize: 20 },
    filters: [{ field: "type", operator: "eq", value: "card" }],
  });
  const prepaid = accounts?.data ?? [];
  const saved = methods?.data ?? [];
  const source = Form.useWatch("source", form) as string | undefined;
  const currency = prepaid[0]?.balance?.currency ?? "USD";
  // The first prepaid account is chosen once the accounts have loaded (they may come after the form).
  const firstAccount = prepaid[0]?.id;
  useEffect(() => {
    if (firstAccount && !form.getFieldValue("accountId")) form.setFieldValue("accountId", firstAccount);
  }, [firstAccount, form]);

  const submit = async (values: CardTopUpValues) => {
    setBusy(true);
    setOutcome(null);
    try {
      let paymentMethodId = values.source !== "new" ? values.source : undefined;
      let cardToken: string | undefined;
      if (!paymentMethodId) {
        cardToken = await tokenizeCard(tokenizeUrl, values);
        if (values.save) {
          const { data: method } = await create({
            resource: "payment-methods",
            values: { cardToken },
            meta: { idempotencyKey: newKey() },
            successNotification: false,
            errorNotification: false,
          });
          paymentMethodId = String(method.id);
          cardToken = undefined;
        }
      }
      const { data } = await create({
        resource: "top-ups",
        values: {
          accountId: values.accountId,
          amount: values.amount,
          ...(paymentMethodId ? { paymentMethodId } : { cardToken }),
        },
        meta: { idempotencyKey: newKey() },
        successNotification: false,
        errorNotification: false,
      });
      const topUp = data as TopUp;
      setOutcome(
        topUp.status === "completed"
          ? { type: "success", text: t("topUp.result.completed", { amount: formatMoney(topUp.amount) }) }
          : topUp.status === "failed"
            ? { type: "error", text: t("topUp.result.failed", { reason: topUp.failureReason ?? "" }) }
            : { type: "info", text: t("topUp.result.pending") },
      );
      form.resetFields(["number", "expiry", "cvc"]);
    } catch (error) {
      if (error instanceof CardError) form.setFields([{ name: error.field, errors: [error.message] }]);
      else setOutcome({ type: "error", text: (error as { message?: string }).message ?? t("topUp.result.error") });
    } finally {
      setBusy(false);
      await invalidate({ resource: "top-ups", invalidates: ["list"] });
      await invalidate({ resource: "payment-methods", invalidates: ["list"] });
      await invalidate({ resource: "accounts", invalidates: ["list", "detail"] });
    }
  };

  return (
    <Card title={t("topUp.card.title")} size="small">
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark="optional"
        onFinish={(values: CardTopUpValues) => void submit(values)}
        initialValues={{ source: "new" }}
        disabled={busy}
      >
        <Form.Item
          name="accountId"
          label={t("topUp.account")}
          htmlFor="top-up-account"
          rules={[{ required: true, message: t("topUp.accountRule") }]}
        >
          <FormSelect
            id="top-up-account"
            options={prepaid.map((a) => ({
              value: a.id,
              label: `${a.name} · ${a.balance ? formatMoney(a.balance) : ""}`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t("topUp.amount")}
          htmlFor="top-up-amount"
          rules={[
            {
              required: true,
              validator: (_r, v: Money | null) =>
                !v || v.amount <= 0 || v.amount > 50_000
                  ? Promise.reject(new Error(t("topUp.amountRule")))
                  : Promise.resolve(),
            },
          ]}
        >
          <MoneyInput id="top-up-amount" currency={currency} />
        </Form.Item>
        <Form.Item name="source" label={t("topUp.payWith")}>
          <Radio.Group>
            <Space direction="vertical">
              {saved.map((m) => (
                <Radio key={m.id} value={m.id}>
                  {t("topUp.savedCard", { brand: t(`enums.cardBrand.${m.brand}`), last4: m.last4 })}
                </Radio>
              ))}
              <Radio value="new">{t("topUp.newCard")}</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        {source === "new" && (
          <>
            <CardInputs prefix="top-up" />
            <Form.Item name="save" valuePropName="checked">
              <Checkbox>{t("topUp.card.save")}</Checkbox>
            </Form.Item>
          </>
        )}
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t("topUp.card.privacy")}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={busy} block>
          {t("topUp.submit")}
        </Button>
      </Form>
      {outcome && (
        <Alert
          style={{ marginTop: 12 }}
          type={outcome.type}
          showIcon
          role="status"
          data-testid="top-up-result"
          message={outcome.text}
        />
      )}
    </Card>
  );
}

function TopUpHistory() {
  const { result, query } = useList<TopUp>({
    resource: "top-ups",
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: 1, pageSize: 20 },
    // While a charge is still being processed, look again now and then (the gateway's webhook settles it).
    queryOptions: {
      refetchInterval: (q) => ((q.state.data?.data ?? []).some((item) => item.status === "created") ? 3_000 : false),
    },
  });
  const topUps = result?.data ?? [];
  return (
    <Card title={t("topUp.history")} size="small">
      <List<TopUp>
        loading={query.isLoading}
        dataSource={topUps}
        locale={{ emptyText: t("topUp.historyEmpty") }}
        renderItem={(item) => (
          <List.Item data-testid="top-up" actions={[<ClaimRefund key="claim" topUp={item} />]}>
            <Space direction="vertical" size={0}>
              <Space wrap>
                <Typography.Text strong>{formatMoney(item.amount)}</Typography.Text>
                <StatusTag
                  tone={item.status === "created" ? "waiting" : toneOfStatus(item.status)}
                  data-status={item.status}
                >
                  {t(`enums.topUpStatus.${item.status}`)}
                </StatusTag>
                {item.refund !== "none" && <Tag>{t(`enums.topUpRefund.${item.refund}`)}</Tag>}
              </Space>
              <Typography.Text type="secondary">
                {t("topUp.lastChange", { at: formatDateTime(item.updatedAt) })}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

/** The top-up's declared claim-refund: offered while its `when` holds (captured, failed or cancelled, not claimed yet). */
function ClaimRefund({ topUp }: { topUp: TopUp }) {
  const claim = useResourceAction("top-ups", "claim-refund", topUp);
  const [open, setOpen] = useState(false);
  if (!claim.available) return null;
  const button = (
    <Button size="small" loading={claim.running} onClick={claim.needsReason ? () => setOpen(true) : undefined}>
      {claim.label}
    </Button>
  );
  // Staff give a reason: the generic dialog asks for it (and says the declared confirmation).
  if (claim.needsReason)
    return (
      <>
        {button}
        <ActionDialog
          resource={claim.resource}
          name="claim-refund"
          action={claim.action}
          record={topUp}
          open={open}
          onClose={() => setOpen(false)}
        />
      </>
    );
  return (
    <Popconfirm
      title={claim.confirmText()}
      onConfirm={() => void claim.run().catch(() => undefined)}
      okText={claim.label}
    >
      {button}
    </Popconfirm>
  );
}

/** The card's declared set-default, offered while it is not the default already. */
function MakeDefault({ method, name, onError }: { method: PaymentMethod; name: string; onError: (e: string) => void }) {
  const setDefault = useResourceAction("payment-methods", "set-default", method);
  if (!setDefault.available) return null;
  return (
    <Button
      size="small"
      aria-label={t("topUp.methods.makeDefaultOf", { card: name })}
      loading={setDefault.running}
      onClick={() =>
        void setDefault
          .run()
          .catch((failure: { message?: string }) => onError(failure.message ?? t("topUp.result.error")))
      }
    >
      {setDefault.label}
    </Button>
  );
}

function SavedCards({ tokenizeUrl }: { tokenizeUrl: string }) {
  const [form] = Form.useForm<CardFields>();
  const invalidate = useInvalidate();
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: remove } = useDelete();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { result, query } = useList<PaymentMethod>({
    resource: "payment-methods",
    pagination: { currentPage: 1, pageSize: 20 },
  });
  const methods = result?.data ?? [];
  const run = async (id: string, call: () => Promise<unknown>) => {
    setBusy(id);
    setError(null);
    try {
      await call();
    } catch (failure) {
      if (failure instanceof CardError) form.setFields([{ name: failure.field, errors: [failure.message] }]);
      else setError((failure as { message?: string }).message ?? t("topUp.result.error"));
      throw failure;
    } finally {
      setBusy(null);
      await invalidate({ resource: "payment-methods", invalidates: ["list"] });
    }
  };
  const add = (values: CardFields) =>
    run("new", async () => {
      const cardToken = await tokenizeCard(tokenizeUrl, values);
      await create({
        resource: "payment-methods",
        values: { cardToken },
        meta: { idempotencyKey: newKey() },
        successNotification: false,
        errorNotification: false,
      });
    }).then(
      () => {
        form.resetFields();
        setAdding(false);
      },
      () => undefined,
    );
  return (
    <Card
      title={t("resources.payment-methods.label")}
      size="small"
      extra={
        !adding && (
          <Button size="small" onClick={() => setAdding(true)}>
            {t("topUp.methods.add")}
          </Button>
        )
      }
    >
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 12 }} />}
      <List<PaymentMethod>
        loading={query.isLoading}
        dataSource={methods}
        locale={{ emptyText: t("topUp.methods.empty") }}
        renderItem={(m) => {
          const name = methodName(m);
          return (
            <List.Item
              data-testid="payment-method"
              actions={[
                // One group, so a default card (no "make default") leaves no empty slot.
                <Space key="actions" wrap>
                  <MakeDefault method={m} name={name} onError={setError} />
                  <Popconfirm
                    title={t("topUp.methods.confirmRemove", { card: name })}
                    onConfirm={() =>
                      void run(`r${m.id}`, () =>
                        remove({
                          resource: "payment-methods",
                          id: m.id,
                          successNotification: false,
                          errorNotification: false,
                        }),
                      ).catch(() => undefined)
                    }
                  >
                    <Button
                      size="small"
                      danger
                      aria-label={t("topUp.methods.removeOf", { card: name })}
                      loading={busy === `r${m.id}`}
                    >
                      {t("topUp.methods.remove")}
                    </Button>
                  </Popconfirm>
                </Space>,
              ]}
            >
              <Space direction="vertical" size={0}>
                <Space wrap>
                  <Typography.Text strong>{name}</Typography.Text>
                  {m.isDefault && <Tag color="blue">{t("fields.isDefault")}</Tag>}
                </Space>
                <Typography.Text type="secondary">
                  {t("topUp.methods.expires", { month: String(m.expMonth).padStart(2, "0"), year: m.expYear })}
                </Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
      {adding && (
        <Form
          noValidate
          form={form}
          layout="vertical"
          onFinish={(values) => void add(values)}
          disabled={busy === "new"}
          style={{ marginTop: 12 }}
        >
          <CardInputs prefix="save-card" />
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={busy === "new"}>
              {t("topUp.methods.save")}
            </Button>
            <Button onClick={() => setAdding(false)}>{t("topUp.methods.cancel")}</Button>
          </Space>
        </Form>
      )}
    </Card>
  );
}
