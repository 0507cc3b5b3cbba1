import { useState } from "react";
import { useCustom, useInvalidate, useList } from "@refinedev/core";
import { Alert, Button, Form, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { PaymentGateway } from "../../resources/topUps";
import type { PaymentMethod } from "../../resources/paymentMethods";
import { apiRequest } from "../../providers/apiClient";
import { CardError, CardInputs, newKey, tokenizeCard, type CardFields } from "./cards";

/**
 * Adds a card inside the dialog that needs one (a bill's Pay), so having no saved card is never a
 * dead end: the card goes to the gateway's tokenizer, is saved, and is picked for the payment.
 * Where this build takes no card payments, it says so instead of offering an empty list.
 */
export function AddCardInline({ onAdded }: { onAdded: (paymentMethodId: string) => void }) {
  const { result: gateway, query } = useCustom<PaymentGateway>({ url: "/payment-gateway", method: "get" });
  const { result: saved, query: savedQuery } = useList<PaymentMethod>({
    resource: "payment-methods",
    pagination: { currentPage: 1, pageSize: 20 },
  });
  const invalidate = useInvalidate();
  const [form] = Form.useForm<CardFields>();
  const [open, setOpen] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Whether a card is saved decides what shows: wait for both answers (an empty list while loading is not "none").
  if (query.isLoading || savedQuery.isLoading) return null;
  const tokenizeUrl = gateway.data?.tokenizeUrl;
  if (!tokenizeUrl) return <Alert type="info" showIcon role="status" message={t("pay.noCards")} />;
  // With no saved card the form is there at once; with some, behind "Use a new card".
  const showing = open ?? saved.data.length === 0;
  if (!showing)
    return (
      <Button type="link" style={{ padding: 0 }} onClick={() => setOpen(true)}>
        {t("pay.newCard")}
      </Button>
    );

  async function add(values: CardFields) {
    setBusy(true);
    setError(undefined);
    try {
      const cardToken = await tokenizeCard(tokenizeUrl!, values);
      const method = await apiRequest<PaymentMethod>("/payment-methods", {
        method: "POST",
        body: { cardToken },
        headers: { "idempotency-key": newKey() },
      });
      await invalidate({ resource: "payment-methods", invalidates: ["list"] });
      onAdded(method.id);
      form.resetFields();
      setOpen(false);
    } catch (failure) {
      if (failure instanceof CardError) form.setFields([{ name: failure.field, errors: [failure.message] }]);
      else setError((failure as { message?: string }).message ?? t("topUp.card.refused"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="pay-new-card" data-testid="pay-new-card">
      <Typography.Title level={3} id="pay-new-card" style={{ fontSize: 16 }}>
        {t(saved.data.length ? "pay.newCard" : "pay.addCardFirst")}
      </Typography.Title>
      {error && <Alert type="error" showIcon role="alert" message={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" noValidate onFinish={(values) => void add(values)} disabled={busy}>
        <CardInputs prefix="pay-card" />
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t("topUp.card.privacy")}
        </Typography.Paragraph>
        <Button htmlType="submit" loading={busy}>
          {t("topUp.methods.save")}
        </Button>
      </Form>
    </section>
  );
}
