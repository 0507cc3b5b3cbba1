import { Form, Input, Radio, Space } from "antd";
import { translate as t } from "../../i18n";
import { routingNumberValid, type PaymentMethod } from "../../resources/paymentMethods";

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
    body: JSON.stringify({
      number: card.number.replace(/\s+/g, ""),
      expMonth: month,
      expYear: year! < 100 ? 2000 + year! : year,
      cvc: card.cvc,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; field?: string; message?: string };
  if (!res.ok || !body.token)
    throw new CardError(
      body.field === "cvc" ? "cvc" : body.field === "number" ? "number" : "expiry",
      body.message ?? t("topUp.card.refused"),
    );
  return body.token;
}

export class CardError extends Error {
  constructor(
    readonly field: keyof CardFields,
    message: string,
  ) {
    super(message);
  }
}

export function CardInputs({ prefix }: { prefix: string }) {
  return (
    <>
      <Form.Item
        name="number"
        label={t("topUp.card.number")}
        htmlFor={`${prefix}-number`}
        rules={[{ required: true, pattern: /^[\d ]{12,23}$/, message: t("topUp.card.numberRule") }]}
      >
        <Input id={`${prefix}-number`} inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" />
      </Form.Item>
      <Space.Compact block style={{ gap: 8 }}>
        <Form.Item
          name="expiry"
          label={t("topUp.card.expiry")}
          htmlFor={`${prefix}-expiry`}
          style={{ flex: 1 }}
          rules={[
            { required: true, pattern: /^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, message: t("topUp.card.expiryRule") },
          ]}
        >
          <Input
            id={`${prefix}-expiry`}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder={t("topUp.card.expiryPlaceholder")}
          />
        </Form.Item>
        <Form.Item
          name="cvc"
          label={t("topUp.card.cvc")}
          htmlFor={`${prefix}-cvc`}
          style={{ flex: 1 }}
          rules={[{ required: true, pattern: /^\d{3,4}$/, message: t("topUp.card.cvcRule") }]}
        >
          <Input id={`${prefix}-cvc`} inputMode="numeric" autoComplete="cc-csc" />
        </Form.Item>
      </Space.Compact>
    </>
  );
}

export const newKey = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

// A US bank account (ACH, bills only) as the browser hands it to the bill-payment gateway's
// tokenizer: the routing number is checked by its ABA checksum here and again at the gateway; the
// account number never reaches our API (only the gateway's token, and later its last 4).

export interface BankFields {
  routingNumber: string;
  accountNumber: string;
  accountHolderType: "individual" | "company";
}

export class BankError extends Error {
  constructor(
    readonly field: keyof BankFields,
    message: string,
  ) {
    super(message);
  }
}

/** Posts the bank account to the gateway's tokenizer and answers its one-time token. */
export async function tokenizeBankAccount(tokenizeUrl: string, account: BankFields): Promise<string> {
  const res = await fetch(tokenizeUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      routingNumber: account.routingNumber.replace(/\s+/g, ""),
      accountNumber: account.accountNumber.replace(/\s+/g, ""),
      accountHolderType: account.accountHolderType,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; field?: string; message?: string };
  if (!res.ok || !body.token)
    throw new BankError(
      body.field === "routingNumber"
        ? "routingNumber"
        : body.field === "accountHolderType"
          ? "accountHolderType"
          : "accountNumber",
      body.message ?? t("pay.bank.refused"),
    );
  return body.token;
}

export function BankInputs({ prefix }: { prefix: string }) {
  return (
    <>
      <Form.Item
        name="routingNumber"
        label={t("pay.bank.routing")}
        htmlFor={`${prefix}-routing`}
        extra={t("pay.bank.routingHelp")}
        rules={[
          {
            required: true,
            validator: (_rule, value: string | undefined) =>
              routingNumberValid((value ?? "").replace(/\s+/g, ""))
                ? Promise.resolve()
                : Promise.reject(new Error(t("pay.bank.routingRule"))),
          },
        ]}
      >
        <Input id={`${prefix}-routing`} inputMode="numeric" autoComplete="off" maxLength={11} />
      </Form.Item>
      <Form.Item
        name="accountNumber"
        label={t("pay.bank.account")}
        htmlFor={`${prefix}-account`}
        rules={[{ required: true, pattern: /^\s*\d{4,17}\s*$/, message: t("pay.bank.accountRule") }]}
      >
        <Input id={`${prefix}-account`} inputMode="numeric" autoComplete="off" maxLength={17} />
      </Form.Item>
      <Form.Item name="accountHolderType" label={t("pay.bank.holder")} initialValue="individual">
        <Radio.Group {...({ role: "radiogroup", "aria-label": t("pay.bank.holder") } as object)}>
          <Radio value="individual">{t("pay.bank.individual")}</Radio>
          <Radio value="company">{t("pay.bank.company")}</Radio>
        </Radio.Group>
      </Form.Item>
    </>
  );
}

/** A saved method in words: "Visa ending 4242", "Sandbox Test Bank account ending 6789". */
export const methodName = (m: PaymentMethod) =>
  m.type === "bank_account"
    ? t("pay.bank.saved", { bank: m.bankName ?? "", last4: m.last4 })
    : t("topUp.savedCard", { brand: t(`enums.cardBrand.${m.brand ?? "unknown"}`), last4: m.last4 });
