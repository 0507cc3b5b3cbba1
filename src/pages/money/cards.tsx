import { Form, Input, Space } from "antd";
import { translate as t } from "../../i18n";

// A card as the browser hands it to the gateway's tokenizer: the top-up page and the bill's pay
// dialog both take one, and neither ever sends its number to our API.

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

/** Posts the card to the gateway's tokenizer (the browser talks to the gateway directly) and answers its one-time token. */
export async function tokenizeCard(tokenizeUrl: string, card: CardFields): Promise<string> {
  const [month, year] = card.expiry.split("/").map((part) => Number(part.trim()));
  const res = await fetch(tokenizeUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ number: card.number.replace(/\s+/g, ""), expMonth: month, expYear: year! < 100 ? 2000 + year! : year, cvc: card.cvc }),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; field?: string; message?: string };
  if (!res.ok || !body.token) throw new CardError(body.field === "cvc" ? "cvc" : body.field === "number" ? "number" : "expiry", body.message ?? t("topUp.card.refused"));
  return body.token;
}

export class CardError extends Error {
  constructor(readonly field: keyof CardFields, message: string) {
    super(message);
  }
}

export function CardInputs({ prefix }: { prefix: string }) {
  return (
    <>
      <Form.Item name="number" label={t("topUp.card.number")} htmlFor={`${prefix}-number`} rules={[{ required: true, pattern: /^[\d ]{12,23}$/, message: t("topUp.card.numberRule") }]}>
        <Input id={`${prefix}-number`} inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" />
      </Form.Item>
      <Space.Compact block style={{ gap: 8 }}>
        <Form.Item name="expiry" label={t("topUp.card.expiry")} htmlFor={`${prefix}-expiry`} style={{ flex: 1 }} rules={[{ required: true, pattern: /^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, message: t("topUp.card.expiryRule") }]}>
          <Input id={`${prefix}-expiry`} inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" />
        </Form.Item>
        <Form.Item name="cvc" label={t("topUp.card.cvc")} htmlFor={`${prefix}-cvc`} style={{ flex: 1 }} rules={[{ required: true, pattern: /^\d{3,4}$/, message: t("topUp.card.cvcRule") }]}>
          <Input id={`${prefix}-cvc`} inputMode="numeric" autoComplete="cc-csc" />
        </Form.Item>
      </Space.Compact>
    </>
  );
}

export const newKey = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
