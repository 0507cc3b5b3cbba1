import { z } from "zod";
import { isoDate, moneySchema } from "./common";

/** The longest period one KPI report covers. */
export const KPI_MAX_DAYS = 366;

/** Ages of open tickets, in days since they were opened (the last bucket has no end). */
export const TICKET_AGE_BUCKETS = [
  { key: "under1d", fromDays: 0, toDays: 1 },
  { key: "1to3d", fromDays: 1, toDays: 3 },
  { key: "3to7d", fromDays: 3, toDays: 7 },
  { key: "over7d", fromDays: 7, toDays: null },
] as const;

/** GET /api/v1/kpis?from&to: a period of whole days in the operator's time zone, both ends included. */
export const kpiQuerySchema = z
  .object({ from: isoDate, to: isoDate })
  .strict()
  .superRefine((q, ctx) => {
    const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1;
    if (days < 1) ctx.addIssue({ code: "custom", path: ["to"], message: "validation.kpiToAfterFrom" });
    else if (days > KPI_MAX_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: "validation.kpiMaxDays", params: { max: KPI_MAX_DAYS } });
  });
export type KpiQuery = z.output<typeof kpiQuerySchema>;

export const kpiDaySchema = z.object({
  day: isoDate,
  newLines: z.number().int(),
  churnedLines: z.number().int(),
  topUps: z.object({ count: z.number().int(), amount: z.number().int() }),
  payments: z.object({ count: z.number().int(), amount: z.number().int() }),
});

export const kpiReportSchema = z.object({
  from: isoDate,
  to: isoDate,
  timezone: z.string(),
  currency: z.string(),
  /** Lines active now. */
  activeLines: z.number().int(),
  days: z.array(kpiDaySchema),
  /** Charges less refunds and reversals in the period, per line active now (minor units, half-up). */
  arpu: moneySchema,
  revenue: moneySchema,
  openTicketsByAge: z.array(
    z.object({
      bucket: z.enum(TICKET_AGE_BUCKETS.map((b) => b.key) as [string, ...string[]]),
      count: z.number().int(),
    }),
  ),
});
export type KpiReport = z.output<typeof kpiReportSchema>;
