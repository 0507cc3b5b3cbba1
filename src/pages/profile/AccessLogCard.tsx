import { useEffect, useState } from "react";
import { Alert, Button, Card, List, Skeleton, Typography } from "antd";
import { translate as t } from "../../i18n";
import { dataProvider } from "../../providers/dataProvider";
import type { AccessLogEntry } from "../../resources/accessLog";
import { formatDateTime, formatTime } from "../../components/format";

const URL = "/me/access-log";
const PAGE_SIZE = 10;
const MISSING = "\u0000";

/** What was looked at, in the subscriber's words ("your bills"); "your account" for a section with no words yet. */
export function sectionText(section: string): string {
  const text = t(`accessLog.sections.${section}`, undefined, MISSING);
  return text === MISSING ? t("accessLog.sections.other") : text;
}

/** "today 10:42", or the date and time of an earlier day. */
function whenText(at: string, now = new Date()): string {
  return new Date(at).toDateString() === now.toDateString()
    ? t("accessLog.today", { time: formatTime(at) })
    : formatDateTime(at);
}

/** "Casey A., Care team: looked at your lines and SIM cards". */
export function visitText(entry: AccessLogEntry): string {
  return t("accessLog.visit", {
    who: entry.staffName ?? t("accessLog.someone"),
    team: t(`accessLog.teams.${entry.team}`),
    what: sectionText(entry.section),
  });
}

/**
 * "Who looked at my account" (issue 27): each time staff read the subscriber's data, newest first,
 * by the staff member's first name and initial and team (GET /me/access-log), ten at a time.
 */
export function AccessLogCard() {
  const [entries, setEntries] = useState<AccessLogEntry[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    dataProvider.custom!<{ data: AccessLogEntry[]; total: number }>({
      url: `${URL}?page=${page}&pageSize=${PAGE_SIZE}`,
      method: "get",
    })
      .then(({ data }) => {
        if (!active) return;
        setEntries((shown) => [...(page === 1 ? [] : (shown ?? [])), ...data.data]);
        setTotal(data.total);
      })
      .catch(() => {
        if (active) setFailed(true);
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, [page]);

  return (
    <Card title={t("accessLog.title")} id="access-log" data-testid="access-log">
      <Typography.Paragraph type="secondary">{t("accessLog.explain")}</Typography.Paragraph>
      {failed ? (
        <Alert type="error" showIcon message={t("accessLog.loadFailed")} />
      ) : !entries ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : entries.length === 0 ? (
        <Typography.Paragraph>{t("accessLog.none")}</Typography.Paragraph>
      ) : (
        <>
          <List<AccessLogEntry>
            size="small"
            dataSource={entries}
            rowKey="id"
            renderItem={(entry) => (
              <List.Item style={{ paddingInline: 0 }}>
                <div>
                  <div>{visitText(entry)}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    <time dateTime={entry.at}>{whenText(entry.at)}</time>
                  </Typography.Text>
                </div>
              </List.Item>
            )}
          />
          {entries.length < total && (
            <Button
              block
              loading={loading}
              onClick={() => {
                setLoading(true);
                setPage(page + 1);
              }}
              style={{ marginTop: 8 }}
            >
              {t("accessLog.more")}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
