import { apiBase, toHttpError } from "../../providers/apiClient";
import { runtimeConfig } from "../../config/runtime";
import { currentIdToken } from "../../providers/session";

/**
 * Downloads the signed-in person's data export (GET /me/privacy-export, a zip) and hands it to the
 * browser as a file. Binary, so not through apiRequest (which reads JSON).
 */
export async function downloadMyData(): Promise<void> {
  const token = await currentIdToken();
  const response = await fetch(`${apiBase}/me/privacy-export`, {
    headers: {
      "x-operator": runtimeConfig.operator,
      "x-app-version": runtimeConfig.appVersion,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  if (!response.ok) throw toHttpError(response.status, await response.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "my-data.zip";
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
