import { useCreate, useList } from "@refinedev/core";
import { Alert, Button, Card, Empty, Form, Input, List, Space, Typography } from "antd";
import { FormSelect } from "../../components/FieldInput";
import { Link, useNavigate } from "react-router";
import type { Account } from "../../resources/accounts";
import { TICKET_CATEGORIES, ticketsResource, type Ticket } from "../../resources/tickets";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";
import { fieldRules } from "../../components/formRules";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { FileListUploadInput } from "../../components/FileUploadInput";

interface NewTicket {
  accountId: string;
  category: string;
  subject: string;
  message: string;
  /** Files uploaded as they are picked (POST /files), attached by id. */
  attachmentIds?: string[];
}

/** A subscriber's help page (phone first): ask for help about one of their accounts, and follow what they asked. */
export function HelpPage() {
  const navigate = useNavigate();
  const [form] = Form.useForm<NewTicket>();
  const accounts = useList<Account>({ resource: "accounts", pagination: { currentPage: 1, pageSize: 50 } });
  const mine = useList<Ticket>({
    resource: "tickets",
    sorters: [{ field: "lastMessageAt", order: "desc" }],
    pagination: { currentPage: 1, pageSize: 20 },
  });
  const { mutateAsync, mutation } = useCreate<Ticket>();
  const accountOptions = (accounts.result?.data ?? []).map((a) => ({
    value: a.id,
    label: `${a.name} · ${t(`enums.accountType.${a.type}`)}`,
  }));
  const error = mutation.error as { message?: string; errors?: Record<string, string[]> } | null;

  const submit = async (values: NewTicket) => {
    // With one account there is nothing to choose: the form's initial values were set before the
    // accounts arrived, so the only account is named here rather than trusted to the hidden field.
    const accountId = values.accountId || (accountOptions.length === 1 ? accountOptions[0]!.value : undefined);
    const { data } = await mutateAsync({
      resource: "tickets",
      values: { ...values, accountId },
      successNotification: false,
    });
    form.resetFields();
    void navigate(`/tickets/show/${data.id}`);
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Card
        title={
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            {t("care.help.title")}
          </Typography.Title>
        }
      >
        <Form<NewTicket>
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ accountId: accountOptions.length === 1 ? accountOptions[0]!.value : undefined }}
          onFinish={(values) => void submit(values).catch(() => {})}
        >
          {accountOptions.length > 1 && (
            <Form.Item
              name="accountId"
              label={t("fields.account")}
              rules={[{ required: true, message: t("care.help.pickAccount") }]}
            >
              <FormSelect options={accountOptions} aria-label={t("fields.account")} />
            </Form.Item>
          )}
          {accountOptions.length <= 1 && (
            <Form.Item name="accountId" hidden initialValue={accountOptions[0]?.value}>
              <Input />
            </Form.Item>
          )}
          <Form.Item
            name="category"
            label={t("fields.ticketCategory")}
            rules={[{ required: true, message: t("care.help.pickCategory") }]}
          >
            <FormSelect
              aria-label={t("fields.ticketCategory")}
              options={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`enums.ticketCategory.${c}`) }))}
            />
          </Form.Item>
          <Form.Item name="subject" label={t("fields.subject")} rules={fieldRules(ticketsResource, "subject")}>
            <Input maxLength={120} />
          </Form.Item>
          <Form.Item
            name="message"
            label={t("fields.ticketMessage")}
            extra={t("resources.tickets.messageHelp")}
            rules={fieldRules(ticketsResource, "message")}
          >
            <Input.TextArea rows={5} maxLength={4000} />
          </Form.Item>
          <Form.Item name="attachmentIds" label={t("fields.attachments")} extra={t("care.help.attachHelp")}>
            <FileListUploadInput />
          </Form.Item>
          {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error.message} />}
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={mutation.isPending}
            disabled={accounts.query.isLoading}
          >
            {t("care.help.send")}
          </Button>
        </Form>
      </Card>
      <Card title={t("care.help.mine")}>
        <List<Ticket>
          loading={mine.query.isLoading}
          dataSource={mine.result?.data ?? []}
          locale={{ emptyText: <Empty description={t("care.help.none")} /> }}
          renderItem={(ticket) => (
            <List.Item data-testid="my-ticket">
              <Space direction="vertical" size={0} style={{ width: "100%" }}>
                <Link to={`/tickets/show/${ticket.id}`}>{ticket.subject}</Link>
                <Space wrap>
                  <StatusTag tone={toneOfStatus(ticket.status)}>{t(`enums.ticketStatus.${ticket.status}`)}</StatusTag>
                  <Typography.Text type="secondary">{formatDateTime(ticket.lastMessageAt)}</Typography.Text>
                </Space>
              </Space>
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}
