import { createContext, useContext, type ReactNode } from "react";
import { useMany } from "@refinedev/core";
import type { ResourceDefinition } from "../resources/define";

type Records = Record<string, Record<string, Record<string, unknown>>>;
const ReferencedContext = createContext<Records>({});

/** A referenced record the page already fetched (by resource and id), if any. */
export const useReferenced = (resource: string, id: string) => useContext(ReferencedContext)[resource]?.[id];

/** One useMany for one reference column: every id on the page, in one request. */
function ReferenceColumn({
  target,
  ids,
  records,
  children,
}: {
  target: string;
  ids: string[];
  records: Records;
  children: (records: Records) => ReactNode;
}) {
  const { result } = useMany<Record<string, unknown>>({
    resource: target,
    ids,
    queryOptions: { enabled: ids.length > 0 },
  });
  const byId = Object.fromEntries((result?.data ?? []).map((record) => [String(record.id), record]));
  return <>{children({ ...records, [target]: { ...records[target], ...byId } })}</>;
}

/**
 * The records a page of rows references (a claim's line), fetched once per referenced resource for
 * the whole page, so each row shows the title without a request of its own.
 */
export function ReferencedRecords({
  resource,
  rows,
  columns,
  children,
}: {
  resource: ResourceDefinition;
  rows: Record<string, unknown>[];
  columns: readonly string[];
  children: ReactNode;
}) {
  const references = columns
    .map((name) => ({
      name,
      target: resource.fields[name]?.kind === "reference" ? resource.fields[name]?.reference?.resource : undefined,
    }))
    .filter((c): c is { name: string; target: string } => Boolean(c.target));
  const nest = (index: number, records: Records): ReactNode => {
    const column = references[index];
    if (!column) return <ReferencedContext.Provider value={records}>{children}</ReferencedContext.Provider>;
    const ids = [...new Set(rows.map((row) => row[column.name]).filter((id): id is string => typeof id === "string"))];
    return (
      <ReferenceColumn target={column.target} ids={ids} records={records}>
        {(more) => nest(index + 1, more)}
      </ReferenceColumn>
    );
  };
  return <>{nest(0, {})}</>;
}
