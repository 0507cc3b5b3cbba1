import { useEffect, type ChangeEvent } from "react";
import type { Dayjs } from "dayjs";
import type { Money } from "../resources/common";
import type { Overage } from "../resources/overage";
import type { CatalogTranslations } from "../resources/catalogTranslations";
import { useSelect } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { DatePicker, Input, InputNumber, Radio, Select, Switch, type SelectProps } from "antd";
import type { FieldSpec } from "../resources/define";
import { findResource } from "../resources";
import { fieldText, recordTitleText } from "./fieldText";
import { MoneyInput } from "./MoneyInput";
import { OverageInput } from "./OverageInput";
import { TranslationsInput } from "./TranslationsInput";
import { DataAllowanceInput } from "./DataAllowanceInput";
import { FileListUploadInput, FileUploadInput } from "./FileUploadInput";
import { FreeNumberField } from "./numbers/FreeNumberField";
import { GROUP_STYLE, LEGEND_STYLE } from "./groupStyle";
import { translate as t } from "../i18n";
import { brandOf } from "../config/brand";
import { runtimeConfig } from "../config/runtime";
import { useFeatureFlags } from "../providers/useFeatureFlags";

/**
 * A select over the records of another resource the user may see, searchable through its `q` search.
 * Options read "title · subtitle" where the target declares one; a choice of one is made at once.
 */
function ReferenceSelect({
  resource,
  filters,
  id,
  ...props
}: {
  resource: string;
  filters: CrudFilter[] | null;
  id?: string;
  value?: string;
  onChange?: (v: string) => void;
}) {
  const target = findResource(resource);
  const subtitle = target?.recordSubtitle;
  const { selectProps, query } = useSelect<Record<string, unknown>>({
    resource,
    optionValue: "id",
    optionLabel: (record) =>
      target
        ? [recordTitleText(target, record), subtitle ? fieldText(subtitle, target.fields[subtitle], record) : null]
            .filter(Boolean)
            .join(" · ")
        : String(record.id),
    searchField: "q",
    defaultValue: props.value,
    pagination: { pageSize: 50 },
    filters: filters ?? [],
    // No record can match (see referenceFilters): nothing is asked, nothing is offered.
    queryOptions: { enabled: filters !== null },
    onSearch: (text) => [{ field: "q", operator: "eq", value: text || undefined }],
  });
  // One account, one line: nothing to choose, so it is chosen (the person still sees which).
  const only = query.data?.data.length === 1 ? String(query.data.data[0]!.id) : undefined;
  const { value, onChange } = props;
  useEffect(() => {
    if (only && !value) onChange?.(only);
  }, [only, value, onChange]);
  return (
    <Select
      id={id}
      showSearch
      {...(selectProps as object)}
      {...(filters === null ? { options: [], loading: false } : {})}
      {...props}
      style={{ width: "100%" }}
    />
  );
}

/**
 * The declared limits of a reference's options: fixed values, and values taken from the acted-on
 * record. Null when the record's value to match is null: as in SQL, nothing equals it (an account
 * without a holder has no holder's cards), so nothing is offered.
 */
function referenceFilters(
  reference: NonNullable<FieldSpec["reference"]>,
  record: Record<string, unknown> | undefined,
): CrudFilter[] | null {
  const fixed = Object.entries(reference.where ?? {}).map(([field, value]): CrudFilter => ({
    field,
    operator: "eq",
    value,
  }));
  const matching: CrudFilter[] = [];
  for (const [field, from] of Object.entries(reference.matching ?? {})) {
    // No acted-on record (a create form), or one that does not carry the field: the limit does not apply.
    if (record?.[from] === undefined) continue;
    if (record[from] === null) return null;
    matching.push({ field, operator: "eq", value: record[from] });
  }
  return [...fixed, ...matching];
}

/**
 * Form.Item adds aria-required, which a select puts on its wrapper <div>, where ARIA does not allow
 * it (axe: aria-allowed-attr); the label's asterisk and the "required" message still say it.
 */
function withoutAriaRequired<P extends object>(props: P): P {
  const rest = { ...props } as P & { "aria-required"?: unknown };
  delete rest["aria-required"];
  return rest;
}

/** A select inside a Form.Item with a required rule, for forms written by hand (see withoutAriaRequired). */
export function FormSelect(props: SelectProps) {
  return <Select {...withoutAriaRequired(props)} />;
}

type Controlled = {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  /** Form.Item's: where the field's error is written. */
  "aria-describedby"?: string;
};

/** Form.Item's value and onChange as the input of the declared kind takes them (the declaration says which). */
function controlled<V, Change = V>(props: Controlled) {
  return props as { id?: string; value?: V; onChange?: (change: Change) => void };
}

/**
 * The input for one declared field, by its kind. Props come from Form.Item (value, onChange, id),
 * so the label points at the input.
 */
export function FieldInput({
  name,
  spec,
  record,
  nullable = false,
  ...props
}: {
  name: string;
  spec: FieldSpec | undefined;
  record?: Record<string, unknown>;
  /** The field takes null as a value of its own (a data allowance: unlimited), offered as an explicit choice. */
  nullable?: boolean;
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  "aria-describedby"?: string;
}) {
  const selectProps = withoutAriaRequired(props);
  const flags = useFeatureFlags();
  switch (spec?.kind) {
    case "longText":
      return (
        <Input.TextArea
          {...controlled<string, ChangeEvent<HTMLTextAreaElement>>(props)}
          autoSize={{ minRows: 3, maxRows: 10 }}
          maxLength={1000}
        />
      );
    case "enum":
      // Labelled as the record view shows them (the declaration's own `labels`, when it has them).
      // Values behind a Remote Config toggle that is off are not offered (the server refuses them too).
      return (
        <Select
          {...selectProps}
          options={(spec.options ?? [])
            .filter((o) => !spec.optionToggles?.[o] || flags[spec.optionToggles[o]])
            .map((o) => ({ value: o, label: fieldText(name, spec, { [name]: o }) }))}
        />
      );
    case "choice":
      // A few answers in sentences: all in sight, under the question as a legend (Form.Item gives no label).
      return (
        <fieldset id={props.id} aria-describedby={props["aria-describedby"]} style={GROUP_STYLE}>
          <legend style={LEGEND_STYLE}>{t(spec.label)}</legend>
          <Radio.Group
            value={props.value}
            onChange={(e) => props.onChange?.(e.target.value)}
            style={{ display: "flex", flexDirection: "column", gap: 8 }}
            options={(spec.options ?? []).map((o) => ({
              value: o,
              label: fieldText(name, { ...spec, kind: "enum" }, { [name]: o }),
            }))}
          />
        </fieldset>
      );
    case "freeNumber":
      return (
        <FreeNumberField
          spec={spec}
          record={record}
          id={props.id}
          value={props.value as string | undefined}
          onChange={props.onChange}
          describedBy={props["aria-describedby"]}
        />
      );
    case "dataMb":
      return (
        <DataAllowanceInput
          {...controlled<number | null, number | null | undefined>(props)}
          unlimitedAllowed={nullable}
        />
      );
    case "number":
    case "quantity":
      return <InputNumber {...controlled<number | null>(props)} controls={false} style={{ width: "100%" }} />;
    case "money":
      return <MoneyInput {...controlled<Money | null>(props)} currency={brandOf(runtimeConfig.operator).currency} />;
    case "overage":
      return (
        <OverageInput
          id={props.id}
          value={props.value as Overage | null | undefined}
          onChange={props.onChange}
          currency={brandOf(runtimeConfig.operator).currency}
        />
      );
    case "translations":
      return (
        <TranslationsInput
          id={props.id}
          value={props.value as CatalogTranslations | undefined}
          onChange={props.onChange}
          translates={spec.translates ?? ["name"]}
        />
      );
    case "boolean":
      return <Switch id={props.id} checked={Boolean(props.value)} onChange={props.onChange} />;
    case "date":
      // Form.Item converts between the dayjs value of the picker and "YYYY-MM-DD" (pickerItemProps).
      return <DatePicker {...controlled<Dayjs | null>(props)} style={{ width: "100%" }} format="YYYY-MM-DD" />;
    case "datetime":
      // Form.Item converts between the dayjs value of the picker and an ISO date-time (pickerItemProps).
      return (
        <DatePicker
          {...controlled<Dayjs | null>(props)}
          showTime={{ format: "HH:mm" }}
          style={{ width: "100%" }}
          format="YYYY-MM-DD HH:mm"
        />
      );
    case "tags":
      return <Select {...selectProps} mode="tags" />;
    case "files":
      // Attachments: each picked file uploaded on the spot (POST /files), the field holds their ids.
      return (
        <FileListUploadInput
          id={props.id}
          value={props.value as string[] | null | undefined}
          onChange={props.onChange}
          purpose={spec.purpose}
        />
      );
    case "reference":
      // An attachment (or an ID document, by the field's purpose): uploaded on the spot (POST /files), the field holds the new file's id.
      if (spec.reference?.resource === "files")
        return (
          <FileUploadInput
            id={props.id}
            value={props.value as string | null | undefined}
            onChange={props.onChange}
            purpose={spec.purpose}
          />
        );
      return spec.reference ? (
        <ReferenceSelect
          resource={spec.reference.resource}
          filters={referenceFilters(spec.reference, record)}
          {...controlled<string>(selectProps)}
        />
      ) : (
        <Input {...controlled<string, ChangeEvent<HTMLInputElement>>(props)} />
      );
    default:
      return <Input {...controlled<string, ChangeEvent<HTMLInputElement>>(props)} />;
  }
}
