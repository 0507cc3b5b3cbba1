/**
 * What the backend needs from a card gateway. The browser tokenizes the card at the gateway
 * (`tokenizeUrl`); the backend only ever handles tokens and the gateway's references.
 */
export interface SavedCard {
  gatewayMethodId: string;
  brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A saved US bank account (ACH): the gateway keeps the account number; we keep its reference, bank name and last 4. */
export interface SavedBankAccount {
  gatewayMethodId: string;
  bankName: string;
  last4: string;
  accountHolderType: "individual" | "company";
}

/** A charge's synchronous answer: `pending` when the gateway did not answer in time, or for a bank debit (ACH) that settles in days (the webhook will tell). */
export type ChargeResult =
  | { outcome: "succeeded"; chargeId: string }
  | { outcome: "failed"; chargeId: string | null; failureCode: string }
  | { outcome: "pending" };

export interface PaymentGateway {
  /** The operator setting that selects it (operators.settings.topUpPayment). */
  name: string;
  /** Where the browser posts a card to get a one-time token. */
  tokenizeUrl: string;
  /** The shared secret its webhooks are signed with. */
  webhookSecret: string;
  /** Exchanges a one-time token for a saved card (422-worthy errors are thrown as GatewayRefusal). */
  saveCard(token: string): Promise<SavedCard>;
  /** Where the browser posts a bank account (routing and account number) to get a one-time token; absent: no bank accounts. */
  tokenizeBankAccountUrl?: string;
  /** Exchanges a one-time bank account token for a saved bank account. */
  saveBankAccount?(token: string): Promise<SavedBankAccount>;
  charge(input: {
    amount: number;
    currency: string;
    source: string;
    reference: string;
    idempotencyKey: string;
  }): Promise<ChargeResult>;
}

/** The gateway refused a request (an unknown or used token): the caller answers 422 naming the field. */
export class GatewayRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The gateways this backend is wired to, by setting name. */
export type PaymentGateways = Record<string, PaymentGateway>;
