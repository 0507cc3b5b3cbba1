import { z } from "zod";

/** A person's consent to the operator's third-party services, as the API carries it (GET/PUT /api/v1/me/consent). */
export const consentSchema = z.object({
  analytics: z.boolean(),
  chat: z.boolean(),
  decidedAt: z.iso.datetime({ offset: true, message: "validation.isoDateTime" }),
});
export type ConsentRecord = z.infer<typeof consentSchema>;

/** The stored choice, or none when the person never chose on a signed-in device. */
export const consentStateSchema = z.object({ consent: consentSchema.nullable() });
