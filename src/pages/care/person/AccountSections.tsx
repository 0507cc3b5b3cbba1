import { useGetIdentity } from "@refinedev/core";
import { Card, Collapse, Descriptions, Space, Tag, Typography } from "antd";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { subscriberSections } from "../sections";
import { VerifyCallerFirst } from "../sections/CallerVerification";
import { can } from "../../../resources/access";
import type { SessionUser } from "../../../providers/session";

/**
 * One account of the person on the 360: its kind, state and number, then its sections (lines,
 * tickets, money…), each loading its own data when first opened. The account the agent opened from
 * the search is marked.
 */
export function AccountSections({
  account,
  opened,
  callerLocked,
}: {
  account: Subscriber;
  opened: boolean;
  /** The caller is not verified (issue 27): only the tickets section opens. */
  callerLocked: boolean;
}) {
  const { data: user } = useGetIdentity<SessionUser>();
  // A section served by a resource the role may not list (agents: the audit trail) is left out.
  const sections = subscriberSections.filter((s) => !s.resource || can(user, s.resource, "list"));
  return (
    <Card
      size="small"
      data-testid="person-account"
      title={
        <Space wrap>
          <Typography.Title level={3} style={{ margin: 0, fontSize: 16 }}>
            {t("care.person.accountTitle", { type: t(`enums.accountType.${account.type}`) })}
          </Typography.Title>
          <StatusTag tone={toneOfStatus(account.status)}>{t(`enums.status.${account.status}`)}</StatusTag>
          {opened && <Tag>{t("care.person.opened")}</Tag>}
        </Space>
      }
    >
      <Space direction="vertical" size="small" style={{ width: "100%" }}>
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={t("care.accountId")}>
            <Typography.Text copyable code>
              {account.id}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("fields.lineCount")}>{account.lineCount}</Descriptions.Item>
          <Descriptions.Item label={t("fields.createdAt")}>{formatDateTime(account.createdAt)}</Descriptions.Item>
        </Descriptions>
        <Collapse
          // Sections load again once the caller is verified (and lock again when it runs out).
          key={callerLocked ? "locked" : "open"}
          defaultActiveKey={sections.filter((s) => s.open).map((s) => s.key)}
          items={sections.map(({ key, title, Component }) => ({
            key,
            label: <span data-testid={`section-${key}`}>{t(title)}</span>,
            children: callerLocked && key !== "tickets" ? <VerifyCallerFirst /> : <Component subscriber={account} />,
          }))}
        />
      </Space>
    </Card>
  );
}
