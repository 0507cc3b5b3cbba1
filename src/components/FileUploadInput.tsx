import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import { translate as t } from "../i18n";
import { runtimeConfig } from "../config/runtime";
import { apiBase, toHttpError, type ApiError } from "../providers/apiClient";
import { currentIdToken } from "../providers/session";

const ACCEPT = "application/pdf,image/png,image/jpeg,image/webp,image/heic,.heic";

/** Sends a file's bytes to POST /files (the server reads the type from them) and answers the new file's id and name. */
export async function uploadFile(file: File, purpose: "attachment" | "id_document" = "attachment"): Promise<{ id: string; name: string }> {
  const token = await currentIdToken();
  const response = await fetch(`${apiBase}/files?${new URLSearchParams({ name: file.name, purpose })}`, {
    method: "POST",
    headers: {
      "content-type": "application/octet-stream",
      "x-operator": runtimeConfig.operator,
      "x-app-version": runtimeConfig.appVersion,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: file,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw toHttpError(response.status, body);
  return body as { id: string; name: string };
}

/**
 * A form input whose value is the id of an uploaded file (a claim's attachment): pick a file, it is
 * uploaded at once; the server's refusal (type, size) is said under the button.
 */
export function FileUploadInput({ id, value, onChange }: { id?: string; value?: string | null; onChange?: (value: string | null) => void }) {
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        disabled={busy}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setBusy(true);
          setError(null);
          try {
            const uploaded = await uploadFile(file);
            setName(uploaded.name);
            onChange?.(uploaded.id);
          } catch (problem) {
            setError((problem as ApiError).statusCode === 413 ? t("files.tooLarge") : (problem as ApiError).statusCode === 415 ? t("files.wrongType") : (problem as ApiError).message);
            event.target.value = "";
          } finally {
            setBusy(false);
          }
        }}
        style={{ maxWidth: "100%" }}
      />
      {value ? (
        <Space wrap>
          <PaperClipOutlined aria-hidden />
          <Typography.Text>{name ?? t("files.attached")}</Typography.Text>
          <Button size="small" onClick={() => (setName(null), onChange?.(null))}>
            {t("files.remove")}
          </Button>
        </Space>
      ) : null}
      {error ? (
        <Typography.Text type="danger" id={`${id}-error`} role="alert">
          {error}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
