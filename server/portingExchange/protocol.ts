import { z } from "zod";

/** The header the exchange signs its answers with: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const EXCHANGE_SIGNATURE_HEADER = "x-exchange-signature";

/** What the backend sends the exchange for one port-in (`reference`: our submission's id, its idempotency key). */
export interface PortRequestBody {
  reference: string;
  msisdn: string;
  carrierAccount: string;
  transferPin: string;
  zip: string;
  /** The carrier the number moves to (the operator's code). */
  recipientCarrier: string;
}

/** The exchange's answer to one port request, as its webhook sends it. */
export const exchangeEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(["port_request.accepted", "port_request.rejected"]),
  created: z.number().int(),
  data: z.object({
    requestId: z.string().min(1).max(200),
    reference: z.uuid(),
    msisdn: z.string().max(20),
    reasonCode: z.string().max(100).optional(),
    reason: z.string().max(500).optional(),
  }),
});
export type ExchangeEvent = z.output<typeof exchangeEventSchema>;
