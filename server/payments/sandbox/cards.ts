/**
 * The sandbox gateway's deterministic test cards (issue 9 item 4). Any other valid number succeeds.
 */
export const SANDBOX_CARDS = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
  timesOut: "4000000000000119",
} as const;

export type CardBehaviour = "succeeds" | "declined" | "timesOut";

export function behaviourOf(number: string): CardBehaviour {
  if (number === SANDBOX_CARDS.declined) return "declined";
  if (number === SANDBOX_CARDS.timesOut) return "timesOut";
  return "succeeds";
}

/** The Luhn check every real card number passes. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): "visa" | "mastercard" | "amex" | "discover" | "unknown" {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^6(011|5)/.test(number)) return "discover";
  return "unknown";
}

/**
 * The sandbox's test bank accounts (ACH, bills only). Any routing number passing the ABA checksum is
 * taken; these account numbers decide what happens once the debit settles (after
 * SANDBOX_ACH_SETTLE_MS, or on POST /v1/ach/settle): any other number settles.
 */
export const SANDBOX_BANK_ACCOUNTS = {
  routingNumber: "110000000",
  settles: "000123456789",
  /** Settles, then comes back returned (R01, insufficient funds). */
  returned: "000111111116",
  /** Fails at settlement (R02, account closed). */
  fails: "000222222227",
} as const;

export type BankBehaviour = "settles" | "returned" | "fails";

export function bankBehaviourOf(accountNumber: string): BankBehaviour {
  if (accountNumber === SANDBOX_BANK_ACCOUNTS.returned) return "returned";
  if (accountNumber === SANDBOX_BANK_ACCOUNTS.fails) return "fails";
  return "settles";
}

/** A few banks by routing number (as a real gateway looks them up); any other reads "Bank …<last 4 of the routing number>". */
const BANKS: Record<string, string> = {
  "110000000": "Sandbox Test Bank",
  "021000021": "JPMorgan Chase",
  "026009593": "Bank of America",
  "121000248": "Wells Fargo",
};
export const bankNameOf = (routingNumber: string) => BANKS[routingNumber] ?? `Bank ${routingNumber.slice(-4)}`;
