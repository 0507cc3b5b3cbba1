import { useList } from "@refinedev/core";
import type { Line } from "../../../resources/lines";
import type { Subscriber } from "../../../resources/subscribers";

/**
 * The ids of the account's lines (at most 100, the largest page), for sections whose records
 * belong to lines (usage, claims, the audit trail). Sections share the one cached request.
 */
export function useAccountLineIds(subscriber: Subscriber): { ids: string[]; lines: Line[]; ready: boolean } {
  const { result, query } = useList<Line>({
    resource: "lines",
    filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
    pagination: { currentPage: 1, pageSize: 100 },
  });
  const lines = result?.data ?? [];
  return { ids: lines.map((line) => line.id), lines, ready: query.isSuccess };
}
