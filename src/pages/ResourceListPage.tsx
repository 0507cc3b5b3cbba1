import type { DeclaredResource } from "./declaredResource";
import { DeleteButton, EditButton, ExportButton, getDefaultSortOrder, List, useTable } from "@refinedev/antd";
import { useGetIdentity, useResourceParams, type CrudFilter, type HttpError } from "@refinedev/core";
import { SubscriberRecordCard } from "./SubscriberRecordCard";
import { PageTitle } from "../components/PageTitle";
import { namedPageArrows } from "../components/paginationLabels";
import { Alert, Button, Card, Grid, List as AntList, Space, Table, Typography, type CheckboxProps } from "antd";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { translate as t } from "../i18n";
import { FieldValue } from "../components/FieldValue";
import { fieldText } from "../components/fieldText";
import { formatRoughCount } from "../components/format";
import { ListFilters } from "../components/ListFilters";
import { ReferencedRecords } from "../components/ReferencedRecords";
import { RecordDownloads } from "../components/actions/RecordDownloads";
import { useCsvExport } from "../components/useCsvExport";
import type { SessionUser } from "../providers/session";

type AnyRecord = Record<string, unknown> & { id: string };

/** Rows a staff member may select in the wide table, and what to do with them (the lines' bulk suspend/restore). */
export type BulkSelection = (selectedIds: string[], clear: () => void) => ReactNode;

/**
 * The list of any declared resource: server-side pagination, sort, filters and search, kept in the
 * URL. Under 768 px it is a list of cards (subscribers are on phones); wider, a table (staff).
 */
export function ResourceListPage({
  resource,
  bulk,
  subscriberTools = false,
}: {
  resource: DeclaredResource;
  bulk?: BulkSelection;
  subscriberTools?: boolean;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  // A subscriber's own few records: no breadcrumbs, and no CSV or filter bar (staff tools on a phone)
  // unless the page asks for them (usage history: a period to pick, a statement to download).
  const { data: user } = useGetIdentity<SessionUser>();
  const subscriber = user?.role === "subscriber";
  const tools = !subscriber || subscriberTools;
  const screens = Grid.useBreakpoint();
  const compact = !screens.md;
  const {
    tableProps,
    searchFormProps,
    setFilters,
    filters,
    sorters,
    tableQuery,
    currentPage,
    setCurrentPage,
    pageSize,
  } = useTable<AnyRecord, HttpError, { q?: string }>({
    resource: resource.name,
    syncWithLocation: true,
    sorters: { initial: resource.list.defaultSort.map((s) => ({ field: s.field, order: s.order })) },
    pagination: { pageSize: 20 },
    onSearch: (values: { q?: string }): CrudFilter[] => [
      { field: "q", operator: "eq", value: values.q?.trim() || undefined },
    ],
  });

  // CSV of exactly what the list shows: the same filters, search and sort, every page, labels in the viewer's language.
  const exportFields: string[] = [...new Set<string>(["id", ...resource.list.columns, ...resource.show])];
  const { triggerExport, isLoading: exporting } = useCsvExport<AnyRecord>({
    resource: resource.name,
    filters,
    sorters,
    pageSize: 100,
    maxItemCount: 10_000,
    filename: `${resource.name}-${new Date().toISOString().slice(0, 10)}`,
    mapData: (record) =>
      Object.fromEntries(
        exportFields.map((name) => [
          t(resource.fields[name]?.label ?? name, undefined, name),
          resource.fields[name]?.kind === "reference" ? record[name] : fieldText(name, resource.fields[name], record),
        ]),
      ),
  });
  // Whether it has a create or edit page is what the routes registered (resourceRoutes.tsx asks
  // resourceViews); asked of Refine, so the generic pages never import the pages that embed them.
  const { resource: registered } = useResourceParams({ resource: resource.name });
  const editable = Boolean(registered?.edit);
  const deletable = Boolean(resource.access.delete);
  const downloadable = Boolean(resource.downloads?.length);

  const searching = filters.some((f) => "field" in f && f.value !== undefined && f.value !== "");
  const titleField = resource.recordTitle;
  const showLink = (record: AnyRecord, children: React.ReactNode) => (
    <Link to={`/${resource.name}/show/${record.id}`}>{children}</Link>
  );

  const columns = resource.list.columns.map((name: string) => ({
    key: name,
    dataIndex: name,
    title: t(resource.fields[name]?.label ?? name),
    sorter: resource.list.sortable.includes(name) ? { multiple: 1 } : false,
    sortOrder: getDefaultSortOrder(name, sorters),
    render: (_: unknown, record: AnyRecord) => {
      const value = <FieldValue name={name} spec={resource.fields[name]} record={record} />;
      return name === titleField ? showLink(record, value) : value;
    },
  }));
  if (editable || deletable || downloadable) {
    columns.push({
      key: "actions",
      dataIndex: "actions",
      title: t("list.actions"),
      sorter: false,
      sortOrder: null,
      // Icon-only: each named with its row ("Edit Prepaid 5 GB"), where a reader heard "edit" on every row.
      render: (_: unknown, record: AnyRecord) => (
        <Space size="small">
          {downloadable && <RecordDownloads resource={resource} record={record} compact />}
          {editable && (
            <EditButton
              hideText
              size="small"
              tabIndex={-1} // inside Refine's link, which takes the keyboard's stop
              aria-label={t("list.editNamed", { title: fieldText(titleField, resource.fields[titleField], record) })}
              recordItemId={record.id}
              accessControl={{ enabled: true, hideIfUnauthorized: true }}
            />
          )}
          {deletable && (
            <DeleteButton
              hideText
              size="small"
              aria-label={t("list.deleteNamed", { title: fieldText(titleField, resource.fields[titleField], record) })}
              recordItemId={record.id}
              accessControl={{ enabled: true, hideIfUnauthorized: true }}
            />
          )}
        </Space>
      ),
    });
  }

  const toolbar = !tools ? null : (
    <ListFilters
      resource={resource}
      filters={filters}
      setFilters={setFilters}
      searchFormProps={searchFormProps}
      compact={compact}
    />
  );

  // A node, not a string: antd would paint a plain string in its disabled grey (1.8:1).
  // A subscriber's empty list in its declaration's words where it has them (`resources.<name>.empty`:
  // what will come here, and how); staff's filtered tables keep the plain words.
  const empty = (
    <Typography.Text type="secondary">
      {searching
        ? t("list.noMatch")
        : subscriber
          ? t(`resources.${resource.name}.empty`, undefined, t("list.empty"))
          : t("list.empty")}
    </Typography.Text>
  );
  const total = tableQuery.data?.total ?? 0;

  return (
    <List
      title={<PageTitle>{t(resource.label)}</PageTitle>}
      canCreate={Boolean(registered?.create)}
      // A task's own words may be long ("Reclamar por un teléfono dañado, perdido o robado"): they wrap at 360 px.
      // Refine draws Create as a button inside a link: one stop for the keyboard (the link), not two.
      createButtonProps={
        resource.createLabel
          ? {
              tabIndex: -1,
              children: t(resource.createLabel),
              style: { whiteSpace: "normal", height: "auto", textAlign: "start" },
            }
          : { tabIndex: -1 }
      }
      breadcrumb={subscriber ? false : undefined}
      headerButtons={({ defaultButtons }) => (
        <>
          {defaultButtons}
          {tools && (
            <ExportButton onClick={() => void triggerExport()} loading={exporting}>
              {t("list.export")}
            </ExportButton>
          )}
        </>
      )}
    >
      {toolbar}
      {bulk && !compact ? bulk(selected, () => setSelected([])) : null}
      <ReferencedRecords
        resource={resource}
        rows={(tableProps.dataSource as AnyRecord[] | undefined) ?? []}
        columns={resource.list.columns}
      >
        {tableQuery.isError ? (
          <Alert
            type="error"
            showIcon
            message={t("list.error", { message: tableQuery.error?.message ?? "" })}
            action={<Button onClick={() => void tableQuery.refetch()}>{t("list.retry")}</Button>}
          />
        ) : compact ? (
          <AntList<AnyRecord>
            loading={tableProps.loading}
            dataSource={tableProps.dataSource as AnyRecord[] | undefined}
            locale={{ emptyText: empty }}
            pagination={
              total > pageSize
                ? {
                    current: currentPage,
                    pageSize,
                    total,
                    onChange: setCurrentPage,
                    simple: true,
                    align: "center",
                    itemRender: namedPageArrows,
                  }
                : false
            }
            renderItem={(record) => (
              <AntList.Item style={{ padding: "6px 0", border: 0 }}>
                {subscriber && resource.subscriberCard ? (
                  <SubscriberRecordCard resource={resource} card={resource.subscriberCard} record={record} />
                ) : (
                  <Card
                    size="small"
                    style={{ width: "100%" }}
                    title={showLink(
                      record,
                      <FieldValue name={titleField} spec={resource.fields[titleField]} record={record} />,
                    )}
                    extra={downloadable ? <RecordDownloads resource={resource} record={record} compact /> : undefined}
                  >
                    {resource.list.columns
                      .filter((name: string) => name !== titleField)
                      .map((name: string) => (
                        <div
                          key={name}
                          style={{ display: "flex", justifyContent: "space-between", gap: 12, padding: "2px 0" }}
                        >
                          <Typography.Text type="secondary">{t(resource.fields[name]?.label ?? name)}</Typography.Text>
                          <span style={{ textAlign: "right" }}>
                            <FieldValue name={name} spec={resource.fields[name]} record={record} />
                          </span>
                        </div>
                      ))}
                  </Card>
                )}
              </AntList.Item>
            )}
          />
        ) : (
          <Table<AnyRecord>
            {...tableProps}
            rowKey="id"
            {...(bulk
              ? {
                  rowSelection: {
                    selectedRowKeys: selected,
                    preserveSelectedRowKeys: true,
                    onChange: (keys: React.Key[]) => setSelected(keys.map(String)),
                    // Each row's checkbox names its record (axe: a form control needs a label); antd's own
                    // select-all label is English whatever the locale.
                    getTitleCheckboxProps: () => ({ "aria-label": t("list.selectAll") }),
                    getCheckboxProps: (record: AnyRecord) =>
                      ({
                        "aria-label": t("list.selectRecord", {
                          title: fieldText(titleField, resource.fields[titleField], record),
                        }),
                      }) as Partial<CheckboxProps>,
                  },
                }
              : {})}
            columns={columns}
            locale={{ emptyText: empty }}
            pagination={{
              ...tableProps.pagination,
              showTotal: (count) =>
                tableQuery.data?.totalIsEstimate
                  ? t("list.totalAbout", { count: formatRoughCount(count) })
                  : t("list.total", { count }),
              showSizeChanger: true,
              itemRender: namedPageArrows,
            }}
            // With row selection, antd's measuring row (aria-hidden, present when scrolling on x) would hold
            // focusable checkboxes (axe: aria-hidden-focus): a selectable table wraps instead of scrolling.
            scroll={bulk ? undefined : { x: "max-content" }}
          />
        )}
      </ReferencedRecords>
    </List>
  );
}
