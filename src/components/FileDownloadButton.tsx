import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { downloadFromApi } from "../providers/download";
import { translate as t } from "../i18n";

/**
 * One stored file as a link-styled button: a click fetches `/files/{id}/content` with the viewer's
 * token (a plain link would be a 401) and saves it under the server's name; a refusal is said next
 * to it. `text` is what the button reads (the file's name, or what the file is).
 */
export function FileDownloadButton({
  fileId,
  text,
  fallbackName = text,
}: {
  fileId: string;
  text: string;
  fallbackName?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Space direction="vertical" size={0}>
      <Button
        type="link"
        style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "left" }}
        aria-label={t("files.download", { name: text })}
        onClick={() => {
          setFailed(null);
          downloadFromApi(`/files/${encodeURIComponent(fileId)}/content`, fallbackName).catch((problem: Error) =>
            setFailed(problem.message),
          );
        }}
      >
        {text}
      </Button>
      {failed && (
        <Typography.Text type="danger" role="alert">
          {failed}
        </Typography.Text>
      )}
    </Space>
  );
}
