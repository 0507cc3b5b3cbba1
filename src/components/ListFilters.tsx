import { getDefaultFilter } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { DatePicker, Form, Input, Select, Space, type FormProps } from "antd";
import dayjs from "dayjs";
import type { ResourceDefinition } from "../resources/define";
import { translate as t } from "../i18n";

interface ListFiltersProps {
  resource: ResourceDefinition;
  /** The list's current filters and setter (Refine's useTable), kept in the URL. */
  filters: CrudFilter[];
  setFilters: (filters: CrudFilter[], behavior: "merge") => void;
  searchFormProps: FormProps;
  /** Under 768 px: the search box takes the whole width. */
  compact: boolean;
}

/**
 * The filter bar of a declared resource's list: free-text search when declared, a drop-down per
 * enum field filtered by `eq`, and a date range per date field filtered by `between` (both ends
 * included on the server).
 */
export function ListFilters({ resource, filters, setFilters, searchFormProps, compact }: ListFiltersProps) {
  const declared = (test: (field: string, operators: readonly string[]) => boolean) =>
    Object.entries(resource.list.filters)
      .filter(([field, operators]) => test(field, operators as readonly string[]))
      .map(([field]) => field);
  const enumFilters = declared((field, ops) => ops.includes("eq") && resource.fields[field]?.kind === "enum");
  const dateRangeFilters = declared(
    (field, ops) => ops.includes("between") && ["date", "datetime"].includes(resource.fields[field]?.kind ?? ""),
  );

  return (
    <Space wrap style={{ marginBottom: 16, width: "100%" }}>
      {resource.list.search && (
        <Form
          noValidate
          {...searchFormProps}
          layout="inline"
          initialValues={{ q: getDefaultFilter("q", filters, "eq") as string | undefined }}
        >
          <Form.Item name="q" noStyle>
            <Input.Search
              allowClear
              enterButton
              aria-label={t(resource.list.search.placeholder)}
              placeholder={t(resource.list.search.placeholder)}
              onSearch={() => searchFormProps.form?.submit()}
              style={{ width: compact ? "100%" : 320 }}
            />
          </Form.Item>
        </Form>
      )}
      {enumFilters.map((field) => {
        const label = t(resource.fields[field]!.label);
        return (
          <Select
            key={field}
            aria-label={t("list.filterBy", { field: label })}
            style={{ minWidth: 160 }}
            value={(getDefaultFilter(field, filters, "eq") as string | undefined) ?? ""}
            onChange={(value: string) => setFilters([{ field, operator: "eq", value: value || undefined }], "merge")}
            options={[
              { value: "", label: `${label}: ${t("list.all")}` },
              ...(resource.fields[field]!.options ?? []).map((o) => ({
                value: o,
                label: t(`enums.${field}.${o}`, undefined, o),
              })),
            ]}
          />
        );
      })}
      {dateRangeFilters.map((field) => {
        const label = t(resource.fields[field]!.label);
        const datetime = resource.fields[field]!.kind === "datetime";
        const current = getDefaultFilter(field, filters, "between") as string[] | undefined;
        return (
          <DatePicker.RangePicker
            key={field}
            aria-label={t("list.filterBy", { field: label })}
            // Where the range starts and ends, each named: "Valid through → Valid through" said neither.
            placeholder={[t("list.rangeFrom", { field: label }), t("list.rangeTo", { field: label })]}
            allowEmpty={[false, false]}
            value={current?.length === 2 ? [dayjs(current[0]), dayjs(current[1])] : null}
            onChange={(range) =>
              setFilters(
                [
                  {
                    field,
                    operator: "between",
                    value:
                      range?.[0] && range[1]
                        ? datetime
                          ? [range[0].startOf("day").toISOString(), range[1].endOf("day").toISOString()]
                          : [range[0].format("YYYY-MM-DD"), range[1].format("YYYY-MM-DD")]
                        : undefined,
                  },
                ],
                "merge",
              )
            }
          />
        );
      })}
    </Space>
  );
}
