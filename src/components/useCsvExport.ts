import {
  pickDataProvider,
  useDataProvider,
  useNotification,
  useResourceParams,
  type BaseRecord,
  type CrudFilter,
  type CrudSort,
} from "@refinedev/core";
import { useState } from "react";
import { downloadText } from "../providers/download";
import { recordsToCsv, type CsvValue } from "../resources/csv";
import { translate as t } from "../i18n";

export interface CsvExportOptions<T extends BaseRecord> {
  resource: string;
  filters?: CrudFilter[];
  sorters?: CrudSort[];
  pageSize?: number;
  maxItemCount: number;
  /** The file's name without `.csv`. */
  filename: string;
  /** A record as its row: column title → value. */
  mapData: (record: T) => Record<string, CsvValue>;
}

/**
 * Refine's useExport, written through the product's one CSV writer (src/resources/csv.ts): Refine's
 * own (papaparse) writes a cell such as `=HYPERLINK(…)` as a live formula. Reads every page of the
 * list through the resource's data provider, with the same filters and sort, up to `maxItemCount`.
 */
export function useCsvExport<T extends BaseRecord>({
  resource,
  filters,
  sorters,
  pageSize = 100,
  maxItemCount,
  filename,
  mapData,
}: CsvExportOptions<T>) {
  const [isLoading, setLoading] = useState(false);
  const dataProvider = useDataProvider();
  const { identifier, resources } = useResourceParams({ resource });
  const { open } = useNotification();

  const triggerExport = async (): Promise<void> => {
    setLoading(true);
    try {
      const { getList } = dataProvider(pickDataProvider(identifier ?? resource, undefined, resources));
      const records: T[] = [];
      for (let currentPage = 1; records.length < maxItemCount; currentPage++) {
        const { data, total } = await getList<T>({
          resource,
          filters: filters ?? [],
          sorters: sorters ?? [],
          pagination: { currentPage, pageSize, mode: "server" },
        });
        records.push(...data);
        if (data.length === 0 || records.length >= total) break;
      }
      // A byte-order mark, so a spreadsheet reads the text as UTF-8 (accents in Spanish labels).
      downloadText(`${filename}.csv`, `\uFEFF${recordsToCsv(records.slice(0, maxItemCount).map(mapData))}`, "text/csv");
    } catch (error) {
      open?.({
        type: "error",
        key: `export-${resource}`,
        message: t("list.exportFailed", { message: (error as Error).message }),
      });
    } finally {
      setLoading(false);
    }
  };
  return { triggerExport, isLoading };
}
