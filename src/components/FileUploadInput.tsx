import { useId, useState } from "react";
import { Button, Space, Typography } from "antd";
import { PaperClipOutlined, UploadOutlined } from "@ant-design/icons";
import { translate as t } from "../i18n";
import { apiBase, backendHeaders, toHttpError, type ApiError } from "../providers/apiClient";
import { currentIdToken } from "../providers/session";
import { throwHttpError } from "../providers/throwHttpError";
import type { Problem } from "../resources/api";
import { formatBytes } from "./format";
import "./filePicker.css";

const ACCEPT = "application/pdf,image/png,image/jpeg,image/webp,image/heic,.heic";

export type UploadPurpose = "attachment" | "id_document";

/** Sends a file's bytes to POST /files (the server reads the type from them) and answers the new file's id and name. */
export async function uploadFile(
  file: File,
  purpose: UploadPurpose = "attachment",
): Promise<{ id: string; name: string; size: number }> {
  const token = await currentIdToken();
  const response = await fetch(`${apiBase}/files?${new URLSearchParams({ name: file.name, purpose })}`, {
    method: "POST",
    headers: {
      "content-type": "application/octet-stream",
      ...backendHeaders(token),
    },
    body: file,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throwHttpError(toHttpError(response.status, body as Partial<Problem> | null));
  return body as { id: string; name: string; size: number };
}

/** Why the file store refused a file, in the reader's language. */
const refusalText = (problem: ApiError) =>
  problem.statusCode === 413
    ? t("files.tooLarge")
    : problem.statusCode === 415
      ? t("files.wrongType")
      : problem.message;

/**
 * A file input drawn as a button with words in the page's language ("Add a photo or PDF"); the
 * native input stays for the keyboard, the form's label and screen readers (filePicker.css).
 */
function FilePicker({
  id,
  multiple,
  disabled,
  busy,
  describedBy,
  onPick,
}: {
  id?: string;
  multiple?: boolean;
  disabled: boolean;
  busy: boolean;
  describedBy?: string;
  onPick: (files: File[], input: HTMLInputElement) => Promise<void>;
}) {
  // The drawn button is a <label> of the input, so it needs an id even outside a Form.Item; there the
  // input has no field label either, so it is named by the button's words (never the browser's "Choose file").
  const ownId = useId();
  const words = busy ? t("files.uploading") : t(multiple ? "files.pickMany" : "files.pickOne");
  return (
    <span>
      <input
        id={id ?? ownId}
        aria-label={id ? undefined : words}
        className="file-picker__input"
        type="file"
        multiple={multiple}
        accept={ACCEPT}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => void onPick([...(event.target.files ?? [])], event.target)}
      />
      <label htmlFor={id ?? ownId} className="file-picker__button" aria-hidden>
        <UploadOutlined />
        {words}
      </label>
    </span>
  );
}

/** Files a message carries: at most this many (the server says so too). */
const DEFAULT_MAX_FILES = 5;

/**
 * A form input whose value is a list of uploaded file ids (a ticket's attachments): each picked file
 * is uploaded at once, listed with its size and a button to take it off; refusals (type, size) are
 * said under the picker, per file.
 */
export function FileListUploadInput({
  id,
  value,
  onChange,
  max = DEFAULT_MAX_FILES,
  purpose = "attachment",
}: {
  id?: string;
  value?: string[] | null;
  onChange?: (value: string[]) => void;
  max?: number;
  purpose?: UploadPurpose;
}) {
  const [files, setFiles] = useState<{ id: string; name: string; size: number }[]>([]);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const ids = value ?? [];
  // A form reset empties the value: forget the names of files no longer in it.
  const shown = files.filter((f) => ids.includes(f.id));
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <FilePicker
        id={id}
        multiple
        busy={busy}
        disabled={busy || ids.length >= max}
        describedBy={errors.length ? `${id}-error` : undefined}
        onPick={async (pickedFiles, input) => {
          const picked = pickedFiles.slice(0, Math.max(0, max - ids.length));
          if (!picked.length) return;
          setBusy(true);
          const refused: string[] = [];
          const added: { id: string; name: string; size: number }[] = [];
          for (const file of picked) {
            try {
              added.push(await uploadFile(file, purpose));
            } catch (problem) {
              refused.push(`${file.name}: ${refusalText(problem as ApiError)}`);
            }
          }
          setFiles((before) => [...before, ...added]);
          setErrors(refused);
          onChange?.([...ids, ...added.map((f) => f.id)]);
          input.value = "";
          setBusy(false);
        }}
      />
      {shown.map((file) => (
        <Space wrap key={file.id} data-testid="picked-file">
          <PaperClipOutlined aria-hidden />
          <Typography.Text>{file.name}</Typography.Text>
          <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
          <Button
            size="small"
            aria-label={`${t("files.remove")} ${file.name}`}
            onClick={() => onChange?.(ids.filter((other) => other !== file.id))}
          >
            {t("files.remove")}
          </Button>
        </Space>
      ))}
      {errors.length ? (
        <Typography.Text type="danger" id={`${id}-error`} role="alert">
          {errors.join(" ")}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/**
 * A form input whose value is the id of an uploaded file (a claim's attachment, the ID document of an
 * eSIM transfer, by `purpose`): pick a file, it is uploaded at once; the server's refusal (type,
 * size) is said under the button.
 */
export function FileUploadInput({
  id,
  value,
  onChange,
  purpose = "attachment",
}: {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  purpose?: UploadPurpose;
}) {
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <FilePicker
        id={id}
        busy={busy}
        disabled={busy}
        describedBy={error ? `${id}-error` : undefined}
        onPick={async ([file], input) => {
          if (!file) return;
          setBusy(true);
          setError(null);
          try {
            const uploaded = await uploadFile(file, purpose);
            setName(uploaded.name);
            onChange?.(uploaded.id);
          } catch (problem) {
            setError(refusalText(problem as ApiError));
            input.value = "";
          } finally {
            setBusy(false);
          }
        }}
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
