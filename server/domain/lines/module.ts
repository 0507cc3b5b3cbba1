import { eq, ilike, or, type SQL } from "drizzle-orm";
import type { Line } from "#resources/lines";
import { accounts, lines, plans } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { tableSource, withoutOwner } from "../tableSource";
import { numberInventoryRoutes } from "../numberInventory/routes";
import { cancelsOnOf } from "./cancelsOn";

const selection = {
  id: lines.id,
  accountId: lines.accountId,
  accountName: accounts.name,
  accountType: accounts.type,
  ownerUid: accounts.ownerUid,
  msisdn: lines.msisdn,
  iccid: lines.iccid,
  simType: lines.simType,
  planId: lines.planId,
  planName: plans.name,
  planTranslations: plans.translations,
  status: lines.status,
  suspendReason: lines.suspendReason,
  cycleDay: lines.cycleDay,
  graceEndsOn: lines.graceEndsOn,
  numberLocked: lines.numberLocked,
  portOutPinExpiresAt: lines.portOutPinExpiresAt,
  payAsYouGo: lines.payAsYouGo,
  dataCapMb: lines.dataCapMb,
  cancelsOn: cancelsOnOf(lines.id),
  createdAt: lines.createdAt,
  updatedAt: lines.updatedAt,
};

export type LineRow = {
  [K in keyof typeof selection]: K extends "createdAt" | "updatedAt"
    ? Date
    : K extends "portOutPinExpiresAt"
      ? Date | null
      : K extends "ownerUid" | "cancelsOn"
        ? string | null
        : unknown;
};

/** The line as the API shows it: a PIN that has expired is as good as none. */
export function toLine(row: LineRow): Line {
  const pinValid = row.portOutPinExpiresAt && row.portOutPinExpiresAt.getTime() > Date.now();
  return {
    ...(withoutOwner(row) as unknown as Line),
    portOutPinExpiresAt: pinValid ? row.portOutPinExpiresAt!.toISOString() : null,
    cancellationScheduled: row.cancelsOn !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Phone numbers match by digits in any format ("(202) 555-0103", "5550103"); otherwise the account holder's name. */
export function searchLines(q: string): SQL {
  const digits = q.replace(/\D/g, "");
  if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(q)) return ilike(lines.msisdn, `%${digits}%`);
  const text = escapeLike(q);
  return or(ilike(accounts.name, `%${text}%`), ilike(lines.msisdn, `%${digits || text}%`))!;
}

/** Lines of the operator with their account and plan joined in; a subscriber's are those of accounts they own. */
export const linesModule: DomainModule<LineRow> = {
  source: tableSource({
    table: lines,
    selection,
    account: lines.accountId,
    line: lines.id,
    joins: (query) => query.innerJoin(plans, eq(lines.planId, plans.id)),
    columns: {
      msisdn: lines.msisdn,
      status: lines.status,
      simType: lines.simType,
      planId: lines.planId,
      accountId: lines.accountId,
      numberLocked: lines.numberLocked,
      createdAt: lines.createdAt,
      accountName: accounts.name,
      accountType: accounts.type,
      planName: plans.name,
    },
    search: searchLines,
    toRecord: toLine,
  }),
  // The operator's number inventory (issue 28): free numbers by area code, and reserving one to pick.
  extraRoutes: (services) => numberInventoryRoutes(services),
};
