import { useApiUrl, useCustomMutation, useGetIdentity, useInvalidate, useOne } from "@refinedev/core";
import { Alert, Button, Card, Form, Input, List, Space, Tag, Typography } from "antd";
import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { isStaff } from "../../resources/access";
import { ticketsResource, type Ticket } from "../../resources/tickets";
import type { SessionUser } from "../../providers/session";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";
import { fieldRules } from "../../components/formRules";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { RecordActions } from "../../components/actions/RecordActions";
import { AttachmentList } from "../../components/AttachmentList";
import { FileListUploadInput } from "../../components/FileUploadInput";
import { SlaTag } from "./SlaTag";
import { useNow } from "./useNow";
import { PresenceBanner } from "./PresenceBanner";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";

/** The state changes of a ticket as buttons; replying has its own box below the conversation. */
const stateActions = {
  ...ticketsResource,
  actions: Object.fromEntries(Object.entries(ticketsResource.actions ?? {}).filter(([name]) => name !== "reply")),
};

/**
 * One ticket, for both sides: the conversation (kept live: a reply from the other side appears
 * without a reload), a reply box while it is open, and the state changes the viewer may make.
 */
export default function TicketPage() {
  const { id = "" } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  const staff = isStaff(user?.role);
  const now = useNow();
  const { result: ticket, query } = useOne<Ticket>({ resource: "tickets", id, errorNotification: drawnWhenNotFound });
  const apiUrl = useApiUrl();
  const invalidate = useInvalidate();
  const { mutateAsync, mutation } = useCustomMutation<Ticket>();
  const [form] = Form.useForm<{ message: string; attachmentIds?: string[] }>();
  const key = useMemo(() => crypto.randomUUID(), [ticket?.messages.length]);

  if (query.isError) return <Alert type="error" showIcon message={t("show.notFound")} />;
  if (!ticket) return <Card loading />;

  // By role, never by name: care is "Care" to everyone; the subscriber is "You" to themselves.
  const author = (role: string) =>
    isStaff(role) ? t("care.ticket.care") : staff ? t("care.ticket.customer") : t("care.ticket.you");
  const conversation = [
    {
      id: "opening",
      authorRole: ticket.createdByRole,
      body: ticket.message,
      attachments: ticket.attachments,
      createdAt: ticket.createdAt,
    },
    ...ticket.messages,
  ];
  const open = ["acknowledged", "in_progress", "pending", "resolved"].includes(ticket.status);
  const error = mutation.error as { message?: string } | null;

  const reply = async ({ message, attachmentIds = [] }: { message: string; attachmentIds?: string[] }) => {
    await mutateAsync({
      url: `${apiUrl}/tickets/${ticket.id}/actions/reply`,
      method: "post",
      values: { message, attachmentIds },
      meta: { idempotencyKey: key },
      successNotification: false,
    });
    form.resetFields();
    await invalidate({ resource: "tickets", invalidates: ["detail", "list"], id: ticket.id });
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <PresenceBanner kind="ticket" id={ticket.id} />
      <Card
        title={
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            {ticket.subject}
          </Typography.Title>
        }
        extra={
          staff ? (
            <Link to={`/subscribers/show/${ticket.accountId}`}>
              {t("care.ticket.open360", { name: ticket.accountName })}
            </Link>
          ) : (
            <Link to="/tickets">{t("care.help.mine")}</Link>
          )
        }
      >
        <Space wrap>
          <StatusTag tone={toneOfStatus(ticket.status)}>{t(`enums.ticketStatus.${ticket.status}`)}</StatusTag>
          <Tag>{t(`enums.ticketCategory.${ticket.category}`)}</Tag>
          {staff && (
            <Tag>
              {t("fields.priority")}: {t(`enums.ticketPriority.${ticket.priority}`)}
            </Tag>
          )}
          {staff && <SlaTag ticket={ticket} now={now} />}
        </Space>
        <div style={{ marginTop: 12 }}>
          <Space wrap>
            <RecordActions resource={stateActions} record={ticket} />
          </Space>
        </div>
      </Card>
      <Card title={t("care.ticket.conversation")}>
        <List
          dataSource={conversation}
          renderItem={(m) => (
            <List.Item data-testid="ticket-message">
              <Space direction="vertical" size={0} style={{ width: "100%" }}>
                <Typography.Text type="secondary">
                  {author(m.authorRole)} · {formatDateTime(m.createdAt)}
                </Typography.Text>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>
                  {m.body}
                </Typography.Paragraph>
                <AttachmentList files={m.attachments} />
              </Space>
            </List.Item>
          )}
        />
        {open && (
          <Form
            noValidate
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={(values) => void reply(values).catch(() => {})}
            style={{ marginTop: 12 }}
          >
            <Form.Item name="message" label={t("care.ticket.reply")} rules={fieldRules(ticketsResource, "message")}>
              <Input.TextArea rows={3} maxLength={4000} />
            </Form.Item>
            <Form.Item name="attachmentIds" label={t("fields.attachments")}>
              <FileListUploadInput />
            </Form.Item>
            {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error.message} />}
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              {t("care.ticket.send")}
            </Button>
          </Form>
        )}
      </Card>
    </Space>
  );
}
