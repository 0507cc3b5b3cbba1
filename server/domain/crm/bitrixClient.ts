/**
 * Bitrix24's REST API through an inbound webhook: `<webhook>/crm.lead.add.json`. The webhook URL
 * carries its secret, so it never appears in errors or logs.
 */
export interface BitrixSettings {
  /** e.g. https://att.bitrix24.com/rest/1/abcdef/ */
  webhookUrl: string;
  /** Deliveries of one lead before it is dead-lettered. */
  maxAttempts: number;
}

export type LeadDelivery = { ok: true; leadId: string } | { ok: false; error: string };

const TIMEOUT_MS = 10_000;

export async function addBitrixLead(webhookUrl: string, fields: Record<string, unknown>): Promise<LeadDelivery> {
  const url = `${webhookUrl.replace(/\/?$/, "/")}crm.lead.add.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ fields, params: { REGISTER_SONET_EVENT: "Y" } }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return {
      ok: false,
      error:
        (error as Error).name === "TimeoutError"
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : "Bitrix24 could not be reached",
    };
  }
  const body = (await response.json().catch(() => null)) as {
    result?: unknown;
    error?: string;
    error_description?: string;
  } | null;
  if (response.ok && body && (typeof body.result === "number" || typeof body.result === "string"))
    return { ok: true, leadId: String(body.result) };
  const why = body?.error
    ? `${body.error}${body.error_description ? `: ${body.error_description}` : ""}`
    : "no lead id in the answer";
  return { ok: false, error: `HTTP ${response.status}, ${why}`.slice(0, 500) };
}
