import type { DeclaredResource } from "../../declaredResource";
import { useApiUrl, useCustom, useList, type BaseRecord, type CrudFilter, type CrudSort } from "@refinedev/core";
import { Table, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useState } from "react";
import { FieldValue } from "../../../components/FieldValue";
import { translate as t } from "../../../i18n";
import { SECTION_PAGE_SIZE } from "./types";
import type { ApiError } from "../../../providers/apiClient";
import { PROBLEM_TYPES } from "../../../resources/api";
import { VerifyCallerFirst } from "./CallerVerification";

/**
 * Where a section's rows come from: a declared resource's list endpoint with filters and sorters
 * (`GET /{resource}?filter[...]`), or a path of the API that answers the same `{data, total}` page
 * (`/subscribers/{id}/notifications`), to which `page` and `pageSize` are added.
 */
export type SectionSource = { resource: string; filters?: CrudFilter[]; sorters?: CrudSort[] } | { path: string };

interface PagedSectionProps<T> {
  source: SectionSource;
  columns: ColumnsType<T>;
  /** False while something the query needs (the account's line ids) is still loading. */
  enabled?: boolean;
  /** Names the table for tests (`data-testid`). */
  testId?: string;
}

interface PageState<T> {
  rows: T[];
  total: number;
  loading: boolean;
  failed: boolean;
  /** The request was refused until the caller is verified (an agent, issue 27). */
  notVerified: boolean;
}

const notVerified = (error: unknown) => (error as ApiError | null)?.problemType === PROBLEM_TYPES.callerNotVerified;

function useResourcePage<T extends BaseRecord>(source: SectionSource, page: number, enabled: boolean): PageState<T> {
  const byResource = "resource" in source;
  const { result, query } = useList<T>({
    resource: byResource ? source.resource : "accounts",
    filters: byResource ? source.filters : undefined,
    sorters: byResource ? source.sorters : undefined,
    pagination: { currentPage: page, pageSize: SECTION_PAGE_SIZE },
    queryOptions: { enabled: enabled && byResource },
  });
  return {
    rows: result?.data ?? [],
    total: result?.total ?? 0,
    loading: enabled && byResource && query.isLoading,
    failed: query.isError,
    notVerified: notVerified(query.error),
  };
}

function usePathPage<T>(source: SectionSource, page: number, enabled: boolean): PageState<T> {
  const apiUrl = useApiUrl();
  const byPath = "path" in source;
  const { result, query } = useCustom<{ data: T[]; total: number }>({
    url: byPath ? `${apiUrl}${source.path}?page=${page}&pageSize=${SECTION_PAGE_SIZE}` : apiUrl,
    method: "get",
    queryOptions: { enabled: enabled && byPath },
  });
  return {
    rows: result?.data?.data ?? [],
    total: result?.data?.total ?? 0,
    loading: enabled && byPath && query.isLoading,
    failed: query.isError,
    notVerified: notVerified(query.error),
  };
}

/**
 * One section of the subscriber 360 as a paged table: its own page number, one request per page
 * (only once the section is opened: the 360's panels render their content on first open), the
 * same page size everywhere, and an error line instead of an empty table when the request fails.
 */
export function PagedSection<T extends BaseRecord>({ source, columns, enabled = true, testId }: PagedSectionProps<T>) {
  const [page, setPage] = useState(1);
  const byResource = useResourcePage<T>(source, page, enabled);
  const byPath = usePathPage<T>(source, page, enabled);
  const { rows, total, loading, failed, notVerified: locked } = "resource" in source ? byResource : byPath;
  if (locked) return <VerifyCallerFirst />;
  if (failed) return <Typography.Text type="danger">{t("care.sections.failed")}</Typography.Text>;
  return (
    <Table<T>
      rowKey="id"
      size="small"
      data-testid={testId}
      loading={loading || !enabled}
      dataSource={rows}
      scroll={{ x: "max-content" }}
      pagination={{
        current: page,
        pageSize: SECTION_PAGE_SIZE,
        total,
        onChange: setPage,
        hideOnSinglePage: true,
        showSizeChanger: false,
      }}
      columns={columns}
    />
  );
}

/** Columns of a declared resource's fields, titled and rendered as its declaration says (money, dates, states). */
export function declaredColumns<T extends BaseRecord>(
  resource: DeclaredResource,
  names: readonly string[],
): ColumnsType<T> {
  return names.map((name) => ({
    key: name,
    title: t(resource.fields[name]?.label ?? name),
    render: (_: unknown, record: T) => <FieldValue name={name} spec={resource.fields[name]} record={record} />,
  }));
}
