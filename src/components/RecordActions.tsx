import { useState } from "react";
import { useApiUrl, useCan, useCustomMutation, useInvalidate } from "@refinedev/core";
import { App, Button, Form, Input, Modal, Popconfirm } from "antd";
import type { ActionSpec, ResourceDefinition } from "../resources/define";
import { translate as t } from "../i18n";

type AnyRecord = Record<string, any> & { id: string };

/** Whether the record is in a state the action allows (the server checks the same `when`). */
export const actionApplies = (action: ActionSpec, record: AnyRecord) =>
  Object.entries(action.when ?? {}).every(([field, values]) => (values as readonly unknown[]).includes(record[field]));

function ActionButton({ resource, name, action, record }: { resource: ResourceDefinition<any, any>; name: string; action: ActionSpec; record: AnyRecord }) {
  const { data: access } = useCan({ resource: resource.name, action: name, params: { id: record.id } });
  const apiUrl = useApiUrl();
  const invalidate = useInvalidate();
  const { message } = App.useApp();
  const { mutateAsync, mutation } = useCustomMutation();
  const [asking, setAsking] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  if (!access?.can || !actionApplies(action, record)) return null;
  const label = t(action.label);

  const run = async (reason?: string) => {
    await mutateAsync({
      url: `${apiUrl}/${resource.name}/${record.id}/actions/${name}`,
      method: "post",
      values: reason ? { reason } : {},
      successNotification: false,
      errorNotification: (error) => ({ type: "error", message: label, description: error?.message ?? "" }),
    });
    await invalidate({ resource: resource.name, invalidates: ["list", "detail"], id: record.id });
    await invalidate({ resource: "audit-events", invalidates: ["list"] }); // the record's history
    message.success(t("actions.done", { action: label }));
  };

  const button = (onClick?: () => void) => (
    <Button danger={action.danger} loading={mutation.isPending} onClick={onClick}>
      {label}
    </Button>
  );

  if (action.reason) {
    return (
      <>
        {button(() => setAsking(true))}
        <Modal
          open={asking}
          title={label}
          okText={label}
          okButtonProps={{ danger: action.danger, loading: mutation.isPending }}
          cancelText={t("form.cancel")}
          onCancel={() => setAsking(false)}
          onOk={async () => {
            const { reason } = await form.validateFields();
            await run(reason.trim()).then(() => {
              setAsking(false);
              form.resetFields();
            }, () => undefined);
          }}
          destroyOnHidden
        >
          <Form form={form} layout="vertical">
            <Form.Item name="reason" label={t("actions.reason")} rules={[{ required: true, whitespace: true, min: 3, message: t("actions.reasonRequired") }]}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} showCount />
            </Form.Item>
          </Form>
        </Modal>
      </>
    );
  }
  if (action.danger) {
    return (
      <Popconfirm title={t("actions.confirm", { action: label })} okText={label} cancelText={t("form.cancel")} onConfirm={() => run().catch(() => undefined)}>
        {button()}
      </Popconfirm>
    );
  }
  return button(() => void run().catch(() => undefined));
}

/** The declared named actions of one record, each shown only when the viewer may run it and the record allows it. */
export function RecordActions({ resource, record }: { resource: ResourceDefinition<any, any>; record: AnyRecord | undefined }) {
  if (!record) return null;
  return (
    <>
      {Object.entries(resource.actions ?? {}).map(([name, action]) => (
        <ActionButton key={name} resource={resource} name={name} action={action as ActionSpec} record={record} />
      ))}
    </>
  );
}
