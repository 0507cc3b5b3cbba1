import { apiBase, backendHeaders, toHttpError } from "./apiClient";
import type { Problem } from "../resources/api";
import { currentIdToken } from "./session";
import { throwHttpError } from "./throwHttpError";

/**
 * Downloads a binary answer of the API (a file, a zip) with the signed-in person's token and hands
 * it to the browser as a file named as the server says (or `fallbackName`). Binary, so not through
 * apiRequest (which reads JSON).
 */
export async function downloadFromApi(path: string, fallbackName: string): Promise<void> {
  const token = await currentIdToken();
  const response = await fetch(`${apiBase}${path}`, {
    headers: backendHeaders(token),
  });
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as Partial<Problem> | null;
    throwHttpError(toHttpError(response.status, problem));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  saveFile(await response.blob(), name);
}

/**
 * Hands text the page already holds to the browser as a file (vouchers' codes, shown once: asking
 * the API again would make a new batch). `type` is its media type, e.g. "text/csv".
 */
export function downloadText(name: string, text: string, type: string): void {
  saveFile(new Blob([text], { type: `${type};charset=utf-8` }), name);
}

/** Saves a blob as a file named `name`, through a link clicked once. */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the object URL is released on the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
