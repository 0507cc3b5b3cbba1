import { useState } from "react";
import { Button, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import type { DownloadSpec, ResourceDefinition } from "../../resources/define";
import { downloadFromApi } from "../../providers/download";
import { translate as t } from "../../i18n";
import { recordTitleText } from "../fieldText";

type AnyRecord = Record<string, unknown> & { id: string };

function DownloadButton({
  resource,
  download,
  record,
  block,
  compact,
}: {
  resource: ResourceDefinition;
  download: DownloadSpec;
  record: AnyRecord;
  block?: boolean;
  compact?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const label = t(download.label);
  const title = recordTitleText(resource, record);
  const run = async () => {
    setBusy(true);
    setFailed(false);
    try {
      // The file needs the viewer's token: fetched, then handed to the browser (a plain link would be a 401).
      await downloadFromApi(
        `/${resource.name}/${encodeURIComponent(record.id)}/${download.path}`,
        `${(record[download.fileName] as string | number | undefined) ?? record.id}.${download.extension}`,
      );
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction={block ? "vertical" : "horizontal"} size={4} style={block ? { width: "100%" } : undefined}>
      <Button
        icon={<DownloadOutlined />}
        size={compact ? "small" : undefined}
        block={block}
        loading={busy}
        // In a row of many records, the button names its record (one accessible name per bill).
        aria-label={compact ? t("download.of", { label, title }) : undefined}
        onClick={() => void run()}
      >
        {label}
      </Button>
      {failed && (
        <Typography.Text type="danger" role="alert">
          {t("download.failed")}
        </Typography.Text>
      )}
    </Space>
  );
}

/** The files a declaration says one record has (`downloads`, a bill's PDF), each a button that fetches it with the viewer's token. */
export function RecordDownloads({
  resource,
  record,
  block,
  compact,
}: {
  resource: ResourceDefinition;
  record: AnyRecord | undefined;
  block?: boolean;
  compact?: boolean;
}) {
  if (!record || !resource.downloads?.length) return null;
  return (
    <>
      {resource.downloads.map((download) => (
        <DownloadButton
          key={download.path}
          resource={resource}
          download={download}
          record={record}
          block={block}
          compact={compact}
        />
      ))}
    </>
  );
}
