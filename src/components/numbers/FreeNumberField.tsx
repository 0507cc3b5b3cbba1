import { useList, type CrudFilter } from "@refinedev/core";
import type { FieldSpec } from "../../resources/define";
import { runtimeConfig } from "../../config/runtime";
import { translate as t } from "../../i18n";
import { FreeNumberPicker } from "./FreeNumberPicker";
import { areaCodeOf, FIRST_AREA_CODE } from "./areaCodes";

/**
 * A declared "freeNumber" input: the picker, starting at the area code the declaration points to
 * (`nearNumber`: the acted-on line's own number, or one of the account's lines), else the operator's
 * first one.
 */
export function FreeNumberField({
  spec,
  record,
  ...picker
}: {
  spec: FieldSpec;
  record?: Record<string, unknown>;
  id?: string;
  value?: string;
  onChange?: (msisdn: string | undefined) => void;
  describedBy?: string;
}) {
  const near = spec.nearNumber;
  const filters: CrudFilter[] = Object.entries(near?.matching ?? {}).map(([field, from]) => ({
    field,
    operator: "eq",
    value: record?.[from],
  }));
  // Another resource's record (one of the account's lines): asked for only when the declaration says so.
  const elsewhere = Boolean(near?.resource && filters.every((filter) => filter.value != null));
  const { result, query } = useList<Record<string, unknown> & { id: string }>({
    resource: near?.resource ?? "lines",
    filters,
    pagination: { pageSize: 1 },
    queryOptions: { enabled: elsewhere },
    errorNotification: false,
  });
  const found = near?.resource ? result.data[0]?.[near.field] : near ? record?.[near.field] : undefined;
  const start = areaCodeOf(found) ?? FIRST_AREA_CODE[runtimeConfig.operator];
  return (
    <FreeNumberPicker
      {...picker}
      legend={t(spec.label)}
      // Not before the account's lines answer: the picker would look up the fallback first, then move.
      startAreaCode={elsewhere && query.isLoading ? undefined : start}
    />
  );
}
