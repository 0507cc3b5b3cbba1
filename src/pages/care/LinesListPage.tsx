import { useApiUrl, useCustomMutation, useGetIdentity } from "@refinedev/core";
import { Alert, Button, Form, Input, Modal, Select, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { isStaff } from "../../resources/access";
import { BULK_JOB_KINDS, type BulkJob } from "../../resources/bulkJobs";
import { linesResource, SELF_SUSPEND_REASONS } from "../../resources/lines";
import type { SessionUser } from "../../providers/session";
import { translate as t } from "../../i18n";
import { ResourceListPage } from "../ResourceListPage";

interface BulkForm {
  kind: (typeof BULK_JOB_KINDS)[number];
  suspendReason?: (typeof SELF_SUSPEND_REASONS)[number];
  reason: string;
}

/** The bulk bar over the selected lines: what to do, why, then the job's page with its live progress. */
function BulkBar({ ids, clear }: { ids: string[]; clear: () => void }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<BulkForm>();
  const kind = Form.useWatch("kind", form);
  const apiUrl = useApiUrl();
  const navigate = useNavigate();
  const { mutateAsync, mutation } = useCustomMutation<BulkJob>();
  const key = useMemo(() => crypto.randomUUID(), [open]);
  const error = mutation.error as { message?: string } | null;
  const submit = async (values: BulkForm) => {
    const body = {
      kind: values.kind,
      lineIds: ids,
      reason: values.reason,
      ...(values.kind === "suspend-lines" && values.suspendReason ? { suspendReason: values.suspendReason } : {}),
    };
    const res = await mutateAsync({
      url: `${apiUrl}/bulk-jobs`,
      method: "post",
      values: body,
      meta: { idempotencyKey: key },
      successNotification: false,
    });
    setOpen(false);
    clear();
    void navigate(`/bulk-jobs/show/${res.data.id}`);
  };
  return (
    <Space style={{ marginBottom: 12 }} wrap>
      <Typography.Text aria-live="polite">{t("resources.bulk-jobs.selected", { count: ids.length })}</Typography.Text>
      <Button type="primary" disabled={!ids.length} onClick={() => setOpen(true)}>
        {t("resources.bulk-jobs.start")}
      </Button>
      <Modal
        open={open}
        title={t("resources.bulk-jobs.start")}
        okText={t("resources.bulk-jobs.submit")}
        onOk={() => form.submit()}
        confirmLoading={mutation.isPending}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Form<BulkForm>
          noValidate
          form={form}
          layout="vertical"
          initialValues={{ kind: "suspend-lines", suspendReason: "request" }}
          onFinish={(values) => void submit(values)}
        >
          <Typography.Paragraph>{t("resources.bulk-jobs.selected", { count: ids.length })}</Typography.Paragraph>
          <Form.Item name="kind" label={t("fields.bulkKind")} rules={[{ required: true }]}>
            <Select
              aria-label={t("fields.bulkKind")}
              options={BULK_JOB_KINDS.map((k) => ({ value: k, label: t(`enums.bulkKind.${k}`) }))}
            />
          </Form.Item>
          {kind === "suspend-lines" ? (
            <Form.Item name="suspendReason" label={t("fields.suspendReason")}>
              <Select
                aria-label={t("fields.suspendReason")}
                options={SELF_SUSPEND_REASONS.map((r) => ({ value: r, label: t(`enums.suspendReason.${r}`) }))}
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="reason"
            label={t("fields.reason")}
            rules={[{ required: true, min: 3, whitespace: true, message: t("staff.reasonRequired") }]}
          >
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
          {error ? <Alert type="error" showIcon message={error.message} /> : null}
        </Form>
      </Modal>
    </Space>
  );
}

/** Lines: the generic list; staff may also select rows and run a bulk suspend or restore on them. */
export default function LinesListPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  const staff = isStaff(user?.role);
  return (
    <ResourceListPage
      resource={linesResource}
      bulk={staff ? (ids, clear) => <BulkBar ids={ids} clear={clear} /> : undefined}
    />
  );
}
