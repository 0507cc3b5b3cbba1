import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/**
 * Uploaded files (ID documents for an eSIM transfer, attachments to claims and tickets): the record
 * is what the file is; the bytes go up with `POST /api/v1/files` and come down with
 * `GET /api/v1/files/{id}/content` (server/domain/files), only to their owner and staff.
 */
export const FILE_PURPOSES = ["attachment", "id_document"] as const;
export const FILE_CONTENT_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/webp", "image/heic"] as const;
/** The largest upload the portal accepts unless the backend is configured otherwise (FILE_MAX_BYTES). */
export const DEFAULT_FILE_MAX_BYTES = 10 * 1024 * 1024;

export const fileSchema = z.object({
  id: idSchema,
  name: z.string(),
  contentType: z.enum(FILE_CONTENT_TYPES),
  size: z.number().int().positive(),
  purpose: z.enum(FILE_PURPOSES),
  ownerUid: z.string(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type StoredFile = z.output<typeof fileSchema>;

/** What an upload answers: the new file's record. */
export const fileUploadQuerySchema = z.object({
  name: z.string().trim().min(1, "validation.fileName").max(200, "validation.atMostChars"),
  purpose: z.enum(FILE_PURPOSES, "attachment or id_document").default("attachment"),
});

export const filesResource = defineResource({
  name: "files",
  store: "table",
  label: "resources.files.label",
  icon: "PaperClipOutlined",
  schema: fileSchema,
  recordTitle: "name",
  fields: {
    name: { label: "fields.fileName", kind: "text" },
    contentType: { label: "fields.fileType", kind: "text" },
    size: { label: "fields.fileSize", kind: "quantity" },
    purpose: { label: "fields.filePurpose", kind: "enum", options: FILE_PURPOSES, labels: "enums.filePurpose" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "purpose", "contentType", "size", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "name", "size"],
    filters: { purpose: ["eq", "in"], contentType: ["eq", "in"], ownerUid: ["eq"] },
  },
  show: ["name", "purpose", "contentType", "size", "createdAt"],
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
  },
  ownership: { path: "ownerUid" },
  source: "backend",
  audit: true,
  menu: false,
  messages: {
    en: {
      "resources.files.label": "Files",
      "fields.fileName": "File",
      "fields.fileType": "Type",
      "fields.fileSize": "Size (bytes)",
      "fields.filePurpose": "Kind",
      "fields.attachment": "Attachment",
      "enums.filePurpose.attachment": "Attachment",
      "enums.filePurpose.id_document": "ID document",
    },
    es: {
      "resources.files.label": "Archivos",
      "fields.fileName": "Archivo",
      "fields.fileType": "Tipo",
      "fields.fileSize": "Tamaño (bytes)",
      "fields.filePurpose": "Clase",
      "fields.attachment": "Adjunto",
      "enums.filePurpose.attachment": "Adjunto",
      "enums.filePurpose.id_document": "Documento de identidad",
    },
  },
});
