import { Space, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import type { TicketAttachment } from "../resources/tickets";
import { translate as t } from "../i18n";
import { formatBytes } from "./format";
import { FileDownloadButton } from "./FileDownloadButton";

/** Files a message carries, each by name and size, downloaded (with the viewer's token) on a click. */
export function AttachmentList({ files }: { files: readonly TicketAttachment[] }) {
  if (!files.length) return null;
  return (
    <Space direction="vertical" size={0} aria-label={t("fields.attachments")}>
      {files.map((file) => (
        <Space key={file.id} size={4} wrap align="start" data-testid="attachment">
          <PaperClipOutlined aria-hidden />
          <FileDownloadButton fileId={file.id} text={file.name} />
          <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
        </Space>
      ))}
    </Space>
  );
}
