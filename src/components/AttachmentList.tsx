import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import type { TicketAttachment } from "../resources/tickets";
import { downloadFromApi } from "../providers/download";
import { translate as t } from "../i18n";
import { formatBytes } from "./format";

/** Files a message carries, each by name and size, downloaded (with the viewer's token) on a click. */
export function AttachmentList({ files }: { files: readonly TicketAttachment[] }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!files.length) return null;
  return (
    <Space direction="vertical" size={0} aria-label={t("fields.attachments")}>
      {files.map((file) => (
        <Space key={file.id} size={4} wrap data-testid="attachment">
          <PaperClipOutlined aria-hidden />
          <Button
            type="link"
            style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "left" }}
            aria-label={t("files.download", { name: file.name })}
            onClick={() => {
              setFailed(null);
              downloadFromApi(`/files/${file.id}/content`, file.name).catch((problem: Error) => setFailed(problem.message));
            }}
          >
            {file.name}
          </Button>
          <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
        </Space>
      ))}
      {failed && (
        <Typography.Text type="danger" role="alert">
          {failed}
        </Typography.Text>
      )}
    </Space>
  );
}
