import { translate as t } from "../../i18n";
import { findResource } from "../../resources";
import { IMPORT_COLUMNS } from "../../resources/bulkJobs";

// What happened to one item of a bulk job, in words. The worker stores its refusals as short
// English notes (server/domain/bulkJobs/runner.ts, importLines.ts); the known ones are said in the
// viewer's language, any other is shown as stored.

const WRONG_STATUS = /^only while status is (\w+) \(it is (\w+)\)$/;
// Lower-cased: the state sits mid-sentence ("the line was suspended").
const lineStatus = (status: string) => t(`enums.status.${status}`, undefined, status).toLocaleLowerCase();

/** The label of an import column ("planId" → "Plan"), from the lines declaration where it has one. */
function columnLabel(column: string): string {
  const lines = findResource("lines");
  const field = { accountId: "accountName", planId: "planName" }[column] ?? column;
  const spec = lines?.fields[field];
  return spec ? t(spec.label) : column;
}

/** One stored error as words; empty when there is none. */
export function bulkItemErrorText(error: string | null): string {
  if (!error) return "";
  if (error === "no such line") return t("bulk.errors.noSuchLine");
  const status = WRONG_STATUS.exec(error);
  if (status) return t("bulk.errors.wrongStatus", { needed: lineStatus(status[1]!), actual: lineStatus(status[2]!) });
  // An import row's refusals: "column: message; column: message", each column by its label.
  return error
    .split("; ")
    .map((part) => {
      const [column, ...rest] = part.split(": ");
      return (IMPORT_COLUMNS as readonly string[]).includes(column!) && rest.length
        ? `${columnLabel(column!)}: ${rest.join(": ")}`
        : part;
    })
    .join("; ");
}
