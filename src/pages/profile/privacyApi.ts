import { downloadFromApi } from "../../providers/download";

/** Downloads the signed-in person's data export (GET /me/privacy-export, a zip) and hands it to the browser as a file. */
export function downloadMyData(): Promise<void> {
  return downloadFromApi("/me/privacy-export", "my-data.zip");
}
