import { useCreate, useList, type HttpError } from "@refinedev/core";
import { Alert, Button, Card, Form, Input, List, Typography } from "antd";
import { useState } from "react";
import { NOTE_MAX_CHARS, type InteractionNote } from "../../../resources/interactionNotes";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";

const NOTES_SHOWN = 20;

/**
 * The person's interaction notes on the 360, newest first with who wrote each and when, and a box to
 * add one. Notes belong to the person (every account of theirs shows them) and only staff see them;
 * the server sets the writer and the time.
 */
export function InteractionNotes({ personId, subscriberId }: { personId: string; subscriberId: string }) {
  const [form] = Form.useForm<{ text: string }>();
  const { result, query } = useList<InteractionNote>({
    resource: "interaction-notes",
    filters: [{ field: "personId", operator: "eq", value: personId }],
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: 1, pageSize: NOTES_SHOWN },
  });
  const { mutateAsync: create } = useCreate<InteractionNote>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async ({ text }: { text: string }) => {
    setBusy(true);
    setFailure(null);
    try {
      await create({
        resource: "interaction-notes",
        values: { subscriberId, text },
        successNotification: false,
        errorNotification: false,
      });
      form.resetFields();
    } catch (error) {
      const problem = error as HttpError;
      const atText = problem.errors?.text;
      if (atText) form.setFields([{ name: "text", errors: ([] as string[]).concat(atText as string[]) }]);
      else setFailure(problem.message || t("care.notes.failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      size="small"
      title={
        <Typography.Title level={3} style={{ margin: 0, fontSize: 16 }}>
          {t("care.notes.title")}
        </Typography.Title>
      }
      data-testid="interaction-notes"
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t("care.notes.staffOnly")}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} requiredMark={false}>
        <Form.Item
          name="text"
          label={t("care.notes.label")}
          rules={[{ required: true, whitespace: true, message: t("validation.atLeastChars", { min: 1 }) }]}
          style={{ marginBottom: 8 }}
        >
          <Input.TextArea rows={2} maxLength={NOTE_MAX_CHARS} showCount placeholder={t("care.notes.placeholder")} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t("care.notes.add")}
        </Button>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" message={failure} style={{ marginTop: 8 }} />}
      {query.isError ? (
        <Typography.Text type="danger">{t("care.sections.failed")}</Typography.Text>
      ) : (
        <List<InteractionNote>
          loading={query.isLoading}
          dataSource={result?.data ?? []}
          // antd greys the empty text below readable contrast: the words in the page's own colour.
          locale={{ emptyText: <Typography.Text>{t("care.notes.none")}</Typography.Text> }}
          renderItem={(note) => (
            <List.Item data-testid="interaction-note">
              <List.Item.Meta
                title={
                  <Typography.Text type="secondary" style={{ fontWeight: "normal" }}>
                    {t("care.notes.byAt", { author: note.authorName, when: formatDateTime(note.createdAt) })}
                  </Typography.Text>
                }
                description={
                  <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0, color: "inherit" }}>
                    {note.text}
                  </Typography.Paragraph>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
