import type { AuditEvent } from "../resources/auditEvents";
import type { FieldSpec } from "../resources/define";
import { findResource } from "../resources";
import { translate as t } from "../i18n";
import { fieldText, maskTail } from "./fieldText";
import { formatDateTime, formatMoney, formatNumber } from "./format";

// An audit row in words (issue 23): who, did what, to which record, what changed. The server names
// the people and the record's title (server/domain/auditEvents/names.ts); the words are the viewer's.

/** A key's message, or undefined when the dictionaries have none. */
const MISSING = "\u0000";
function known(key: string, params?: Record<string, unknown>): string | undefined {
  const text = t(key, params, MISSING);
  return text === MISSING ? undefined : text;
}

/**
 * "lines.suspend" → "Suspended". A phrase of its own when the dictionaries have one, else the
 * generic create/edit/delete, else the declared action's label (a new action still reads as words).
 */
export function actionText(action: string): string {
  const dot = action.lastIndexOf(".");
  const [type, verb] = [action.slice(0, dot), action.slice(dot + 1)];
  const declared = findResource(type)?.actions?.[verb];
  return known(`audit.actions.${action}`) ?? known(`audit.verbs.${verb}`) ?? (declared ? t(declared.label) : action);
}

/** The actor as a person: name (and email) when known, "System" for the system, else the uid. */
export function actorText(event: Pick<AuditEvent, "actorUid" | "actorRole" | "actorName">): string {
  if (event.actorName) return event.actorName;
  if (!event.actorUid) return t("audit.system");
  return t("audit.unknownPerson", { uid: event.actorUid });
}

/** "Line (202) 555-0101", "Bill INV-2026-000123", "User Sam Chen"; the type alone when the record has no title. */
export function targetText(event: Pick<AuditEvent, "targetType" | "targetTitle">): string {
  const resource = findResource(event.targetType);
  const noun = known(`audit.targets.${event.targetType}`) ?? (resource ? t(resource.label) : event.targetType);
  if (!event.targetTitle) return noun;
  const titleField = resource?.recordTitle;
  const title =
    resource && titleField
      ? fieldText(titleField, resource.fields[titleField], { [titleField]: event.targetTitle }) || event.targetTitle
      : event.targetTitle;
  return t("audit.target", { noun, title });
}

/** Keys whose values are shown by their last 4 characters only, declared or not (an ICCID in an import row). */
const ALWAYS_MASKED = new Set(["iccid"]);

/** The fields of the target's declaration that are masked, with the ones always masked. */
function maskedKeys(targetType: string): Set<string> {
  const fields = findResource(targetType)?.fields ?? {};
  return new Set([
    ...ALWAYS_MASKED,
    ...Object.entries(fields)
      .filter(([, spec]) => (spec as FieldSpec).masked)
      .map(([name]) => name),
  ]);
}

/** Fields that change with every write, or name the record itself: not news in a list of changes. */
const NOT_CHANGES = new Set(["id", "updatedAt"]);

/** Keys whose values share one set of words (`audit.values.<group>.<value>`): the ways to sign in. */
const VALUE_GROUPS: Record<string, string> = {
  method: "provider",
  providerId: "provider",
  secondFactor: "provider",
  factor: "provider",
};

/** A moment as the API writes it ("2026-12-01T06:47:22.633Z"), whatever its key is called ("until"). */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** A text value in words: a known value's phrase (a sign-in method, a source), a time as a time, else itself. */
function textValue(key: string, value: string, scope: string): string {
  const phrase =
    known(`audit.values.${scope}.${key}.${value}`) ?? known(`audit.values.${VALUE_GROUPS[key] ?? key}.${value}`);
  if (phrase) return phrase;
  if (INSTANT.test(value)) return formatDateTime(value);
  return value;
}

/** A value no declaration describes, as plain text: money as money, a list joined, an object as compact JSON. */
function plainText(key: string, value: unknown, masked: Set<string>, scope: string): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return t(value ? "common.yes" : "common.no");
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "string") return masked.has(key) ? maskTail(value) : textValue(key, value, scope);
  if (Array.isArray(value)) return value.map((v) => plainText(key, v, masked, scope)).join(", ") || "—";
  const money = value as { amount?: unknown; currency?: unknown };
  if (typeof money.amount === "number" && typeof money.currency === "string")
    return formatMoney({ amount: money.amount, currency: money.currency });
  return JSON.stringify(maskRaw(value, masked));
}

export interface FieldChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

/**
 * The fields a write changed, labelled and formatted by the target's declaration (an ICCID masked);
 * a created record lists what it was created with, a deleted one what it had. A field an action of
 * its own kind names its own way is looked up under that kind first (`audit.fields.caller-verification.method`
 * is how the caller proved who they are, not how someone signed in).
 */
export function fieldChanges(
  event: Pick<AuditEvent, "targetType" | "before" | "after"> & { action?: string },
): FieldChange[] {
  const scope = event.action?.slice(0, event.action.lastIndexOf(".")) ?? "";
  const before = event.before ?? {};
  const after = event.after ?? {};
  const resource = findResource(event.targetType);
  const masked = maskedKeys(event.targetType);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !NOT_CHANGES.has(key) && JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null),
  );
  return keys.map((key) => {
    const spec = resource?.fields[key];
    const show = (record: Record<string, unknown>) =>
      spec ? fieldText(key, spec, record) || "—" : plainText(key, record[key], masked, scope);
    return {
      field: key,
      label: spec
        ? t(spec.label)
        : (known(`audit.fields.${scope}.${key}`) ?? known(`audit.fields.${key}`) ?? t(`fields.${key}`, undefined, key)),
      before: event.before ? show(before) : "—",
      after: event.after ? show(after) : "—",
    };
  });
}

/** A copy of raw data with the masked keys' values masked at any depth: the raw view hides no less than the page. */
export function maskRaw(value: unknown, masked: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => maskRaw(v, masked));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        masked.has(k) && typeof v === "string" ? maskTail(v) : maskRaw(v, masked),
      ]),
    );
  }
  return value;
}

/** The row as stored (ids, keys, before and after) for the raw view, masked as the page is. */
export function rawJson(event: AuditEvent): string {
  const { action, actorUid, actorRole, targetType, targetId, requestId, before, after } = event;
  return JSON.stringify(
    maskRaw({ action, actorUid, actorRole, targetType, targetId, requestId, before, after }, maskedKeys(targetType)),
    null,
    2,
  );
}

/** One side (before or after) as JSON for the CSV, masked; empty when there is none. */
export function rawSide(event: Pick<AuditEvent, "targetType">, side: Record<string, unknown> | null): string {
  return side ? JSON.stringify(maskRaw(side, maskedKeys(event.targetType))) : "";
}
