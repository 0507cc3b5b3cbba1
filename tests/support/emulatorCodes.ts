import { EMULATOR_HOST, PROJECT_ID } from "./authEmulator";

/** The last SMS code the Auth emulator "sent" to a number (codes pile up: take the newest). */
export async function lastSmsCode(phoneNumber: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/verificationCodes`);
    const body = (await res.json()) as { verificationCodes?: { phoneNumber: string; code: string }[] };
    const codes = (body.verificationCodes ?? []).filter((c) => c.phoneNumber === phoneNumber);
    if (codes.length) return codes.at(-1)!.code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No SMS code for ${phoneNumber} within ${timeoutMs} ms`);
}

/** How many SMS codes the emulator holds for a number (to wait for a new one). */
export async function smsCodeCount(phoneNumber: string): Promise<number> {
  const res = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/verificationCodes`);
  const body = (await res.json()) as { verificationCodes?: { phoneNumber: string }[] };
  return (body.verificationCodes ?? []).filter((c) => c.phoneNumber === phoneNumber).length;
}

/** The numbers freshPhoneNumber gave in this process: drawn again, one would not be fresh. */
const given = new Set<string>();

/**
 * A fresh, valid US number per test, clear of the demo lines (+1 202 555 01xx), never one this process
 * gave before: six draws among 7,999 numbers repeat one about once in 500 runs, and in CI a number
 * asked for again hit its per-number SMS limit instead of the per-address one under test.
 */
export function freshPhoneNumber(): string {
  for (;;) {
    const number = `+1202555${2000 + Math.floor(Math.random() * 7999)}`;
    if (given.has(number)) continue;
    given.add(number);
    return number;
  }
}

export const freshEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

export interface OobCode {
  email: string;
  /** VERIFY_EMAIL, PASSWORD_RESET, EMAIL_SIGNIN, or another the emulator adds. */
  requestType: string;
  oobLink: string;
}

/** The newest email action (verification, reset, sign-in link) the emulator "sent" to an address. */
export async function lastOobCode(
  email: string,
  requestType: OobCode["requestType"],
  timeoutMs = 10_000,
): Promise<OobCode> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
    const body = (await res.json()) as { oobCodes?: OobCode[] };
    const codes = (body.oobCodes ?? []).filter((c) => c.email === email && c.requestType === requestType);
    if (codes.length) return codes.at(-1)!;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No ${requestType} email for ${email} within ${timeoutMs} ms`);
}
