import { runtimeConfig } from "../config/runtime";
import { apiBase, toHttpError } from "./apiClient";
import { currentIdToken } from "./session";

/**
 * Downloads a binary answer of the API (a file, a zip) with the signed-in person's token and hands
 * it to the browser as a file named as the server says (or `fallbackName`). Binary, so not through
 * apiRequest (which reads JSON).
 */
export async function downloadFromApi(path: string, fallbackName: string): Promise<void> {
  const token = await currentIdToken();
  const response = await fetch(`${apiBase}${path}`, {
    headers: {
      "x-operator": runtimeConfig.operator,
      "x-app-version": runtimeConfig.appVersion,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  if (!response.ok) throw toHttpError(response.status, await response.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the object URL is released on the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
