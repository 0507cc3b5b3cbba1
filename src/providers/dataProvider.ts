import type {
  BaseRecord,
  CreateParams,
  CrudFilter,
  CrudSort,
  CustomParams,
  DataProvider,
  DeleteOneParams,
  GetListParams,
  GetManyParams,
  GetOneParams,
  Pagination,
  UpdateParams,
} from "@refinedev/core";
import { apiBase, apiRequest } from "./apiClient";
import { takePrefetchedHome } from "./prefetchedHome";

/** Refine's pagination, sorters and filters as the list contract's query string (design.md §4). */
export function toListQuery(pagination?: Pagination, sorters?: CrudSort[], filters?: CrudFilter[]): URLSearchParams {
  const params = new URLSearchParams();
  if (pagination?.mode !== "off" && pagination?.mode !== "client") {
    params.set("page", String(pagination?.currentPage ?? 1));
    params.set("pageSize", String(pagination?.pageSize ?? 10));
  }
  if (sorters?.length) params.set("sort", sorters.map((s) => `${s.order === "desc" ? "-" : ""}${s.field}`).join(","));
  for (const filter of filters ?? []) {
    if (!("field" in filter))
      throw new Error("Grouped (and/or) filters are not supported by the backend list contract.");
    const { field, operator } = filter;
    // Refine's filter values are what forms and URLs give: text, numbers, booleans (or lists of them).
    const value = filter.value as string | number | boolean | (string | number | boolean)[] | undefined;
    if (value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) continue;
    if (field === "q") {
      params.set("q", String(value));
      continue;
    }
    const text = Array.isArray(value)
      ? value.join(",")
      : operator === "null" || operator === "nnull"
        ? ""
        : String(value);
    params.set(operator === "eq" ? `filter[${field}]` : `filter[${field}][${operator}]`, text);
  }
  return params;
}

const idempotency = (meta?: Record<string, unknown>) =>
  typeof meta?.idempotencyKey === "string" ? { "idempotency-key": meta.idempotencyKey } : undefined;

/**
 * The REST data provider for the common backend, the portal's one client: Refine's hooks use it, and so
 * does code that runs outside Refine (the light home, consent sync) through `custom`.
 */
export const dataProvider: DataProvider = {
  getApiUrl: () => apiBase,

  async getList<TData extends BaseRecord = BaseRecord>({
    resource,
    pagination,
    sorters,
    filters,
    meta,
  }: GetListParams) {
    const query = toListQuery(pagination, sorters, filters).toString();
    const body = await apiRequest<{ data: TData[]; total: number; totalIsEstimate?: true }>(
      `/${resource}${query ? `?${query}` : ""}`,
      { signal: meta?.signal as AbortSignal | undefined },
    );
    // Past 10,000 matches the total is the database's estimate: the list says "about".
    return { data: body.data, total: body.total, totalIsEstimate: body.totalIsEstimate === true };
  },

  async getOne<TData extends BaseRecord = BaseRecord>({ resource, id }: GetOneParams) {
    return { data: await apiRequest<TData>(`/${resource}/${encodeURIComponent(String(id))}`) };
  },

  /** Records by id in one list request per 50 ids (`filter[id][in]`, which every list accepts), never one request per id. */
  async getMany<TData extends BaseRecord = BaseRecord>({ resource, ids, meta }: GetManyParams) {
    const unique = [...new Set(ids.map(String))];
    const pages: string[][] = [];
    for (let i = 0; i < unique.length; i += 50) pages.push(unique.slice(i, i + 50));
    const bodies = await Promise.all(
      pages.map((page) => {
        const query = new URLSearchParams({ "filter[id][in]": page.join(","), pageSize: String(page.length) });
        return apiRequest<{ data: TData[] }>(`/${resource}?${query}`, {
          signal: meta?.signal as AbortSignal | undefined,
        });
      }),
    );
    return { data: bodies.flatMap((body) => body.data) };
  },

  async create<TData extends BaseRecord = BaseRecord, TVariables = object>({
    resource,
    variables,
    meta,
  }: CreateParams<TVariables>) {
    return {
      data: await apiRequest<TData>(`/${resource}`, { method: "POST", body: variables, headers: idempotency(meta) }),
    };
  },

  async update<TData extends BaseRecord = BaseRecord, TVariables = object>({
    resource,
    id,
    variables,
  }: UpdateParams<TVariables>) {
    return {
      data: await apiRequest<TData>(`/${resource}/${encodeURIComponent(String(id))}`, {
        method: "PATCH",
        body: variables,
      }),
    };
  },

  async deleteOne<TData extends BaseRecord = BaseRecord, TVariables = object>({
    resource,
    id,
  }: DeleteOneParams<TVariables>) {
    return { data: await apiRequest<TData>(`/${resource}/${encodeURIComponent(String(id))}`, { method: "DELETE" }) };
  },

  async custom<TData extends BaseRecord = BaseRecord, TQuery = unknown, TPayload = unknown>({
    url,
    method,
    payload,
    headers,
    meta,
  }: CustomParams<TQuery, TPayload>) {
    const path = url.startsWith(apiBase) ? url.slice(apiBase.length) : url;
    const verb = method.toUpperCase() as "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
    if (verb === "GET" && path === "/home") {
      const home = await takePrefetchedHome(); // started at sign-in or by the entry, already on its way
      if (home) return { data: home as unknown as TData }; // the prefetched answer is the /home answer the caller typed
    }
    const sent = { ...headers, ...idempotency(meta) };
    return {
      data: await apiRequest<TData>(path, {
        method: verb,
        ...(payload !== undefined ? { body: payload } : {}),
        ...(Object.keys(sent).length ? { headers: sent } : {}),
      }),
    };
  },
};
