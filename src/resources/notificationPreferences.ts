import { z } from "zod";

/** The alerts a subscriber may also get by email or SMS (the inbox always has them): 80 % and 100 % of an allowance. */
export const ALERT_KINDS = ["usage80", "usage100"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const channelsSchema = z.object({ email: z.boolean("true or false"), sms: z.boolean("true or false") }).strict();

/** `GET/PUT /me/notification-preferences`: per alert kind, whether it also goes out by email and by SMS. */
export const notificationPreferencesSchema = z.object({ usage80: channelsSchema, usage100: channelsSchema }).strict();
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

/** A PUT may name only the kinds it changes. */
export const notificationPreferencesUpdateSchema = notificationPreferencesSchema.partial().strict();
