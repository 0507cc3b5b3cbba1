import dayjs, { type Dayjs } from "dayjs";
import type { FieldKind } from "../resources/define";

/**
 * The Form.Item props of a date or date-time field: the picker holds a dayjs value, the form (and so
 * the request, its checks and `onlyWhen`) holds the value as the API takes it: "YYYY-MM-DD" for a
 * date, ISO 8601 for a date-time. Nothing for other kinds. Without them a dayjs object is sent, and
 * JSON makes it a date-time, which a date refuses.
 */
export function pickerItemProps(kind: FieldKind | undefined) {
  if (kind !== "date" && kind !== "datetime") return {};
  return {
    getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v) : undefined }),
    normalize: (d: Dayjs | null) => (d ? (kind === "date" ? d.format("YYYY-MM-DD") : d.toISOString()) : null),
  };
}
