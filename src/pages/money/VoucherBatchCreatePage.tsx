import type { DeclaredResource } from "../declaredResource";
import { useRef, useState } from "react";
import { useCreate } from "@refinedev/core";
import { Alert, Button, Card, DatePicker, Form, InputNumber, Popconfirm, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import dayjs from "dayjs";
import { Link } from "react-router";
import type { z } from "zod";
import { translate as t } from "../../i18n";
import {
  createdVoucherBatchSchema,
  MAX_VOUCHERS_PER_BATCH,
  newVoucherBatchSchema,
  voucherCodesCsv,
} from "../../resources/voucherBatches";
import type { ApiError } from "../../providers/apiClient";
import { downloadText } from "../../providers/download";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import { zodRules } from "../../components/formRules";
import { MoneyInput } from "../../components/MoneyInput";
import { formatDate, formatMoney } from "../../components/format";

type CreatedBatch = z.output<typeof createdVoucherBatchSchema>;
type Values = z.input<typeof newVoucherBatchSchema>;
const FIELDS = ["count", "value", "expiresOn"] as const;

const newKey = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * Admins generate a batch of prepaid vouchers (`POST /voucher-batches`). The answer carries the codes
 * this once (the server keeps only their hashes): the page shows them with a warning that they will
 * not be shown again and saves them as CSV from what it holds (asking again would make a new batch).
 * Each field is checked by the same schema the server uses; the server's field errors land at the field.
 */
export default function VoucherBatchCreatePage({ resource }: { resource: DeclaredResource }) {
  const [form] = Form.useForm<Values>();
  // The data provider's create (Refine reads the batches' list again after it).
  const { mutateAsync: create } = useCreate<CreatedBatch>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedBatch | null>(null);
  // Kept while an attempt may have reached the server unanswered (network error): the retry replays it, never a second batch.
  const key = useRef<string | null>(null);
  const currency = brandOf(runtimeConfig.operator).currency;
  const label = (field: (typeof FIELDS)[number]) => t(`resources.voucher-batches.create.${field}`);

  const submit = async (values: Values) => {
    setBusy(true);
    setFailure(null);
    key.current ??= newKey();
    try {
      const { data: batch } = await create({
        resource: resource.name,
        values,
        meta: { idempotencyKey: key.current },
        successNotification: false,
        errorNotification: false,
      });
      key.current = null;
      setCreated(batch);
    } catch (error) {
      const problem = error as ApiError;
      if (problem.statusCode !== 0) key.current = null;
      const atFields = Object.entries(problem.errors ?? {}).filter(([path]) =>
        (FIELDS as readonly string[]).includes(path.split(".")[0]!),
      );
      if (atFields.length)
        form.setFields(
          atFields.map(([path, messages]) => ({
            name: path.split(".")[0] as keyof Values,
            errors: ([] as string[]).concat(messages as string[]),
          })),
        );
      else setFailure(problem.message ?? t("resources.voucher-batches.create.failed"));
    } finally {
      setBusy(false);
    }
  };

  const title = (
    <Typography.Title level={3} style={{ margin: 0 }}>
      {t("resources.voucher-batches.create.title")}
    </Typography.Title>
  );

  if (created)
    return (
      <CreatedCodes batch={created} title={title} onAnother={() => setCreated(null)} resourceName={resource.name} />
    );

  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 640 }}>
      {title}
      <Card size="small">
        <Form<Values>
          noValidate
          form={form}
          layout="vertical"
          disabled={busy}
          // A year of validity unless the admin says otherwise.
          initialValues={{ expiresOn: dayjs().add(1, "year").format("YYYY-MM-DD") }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="count"
            label={label("count")}
            htmlFor="voucher-count"
            rules={zodRules(newVoucherBatchSchema.shape.count, label("count"))}
            validateTrigger="onBlur"
            extra={t("resources.voucher-batches.create.countHelp", { max: MAX_VOUCHERS_PER_BATCH })}
          >
            <InputNumber<number> controls={false} id="voucher-count" style={{ width: "100%" }} min={1} precision={0} />
          </Form.Item>
          <Form.Item
            name="value"
            label={label("value")}
            htmlFor="voucher-value"
            rules={zodRules(newVoucherBatchSchema.shape.value, label("value"))}
            validateTrigger="onBlur"
          >
            <MoneyInput id="voucher-value" currency={currency} />
          </Form.Item>
          <Form.Item
            name="expiresOn"
            label={label("expiresOn")}
            htmlFor="voucher-expires-on"
            rules={zodRules(newVoucherBatchSchema.shape.expiresOn, label("expiresOn"))}
            // The picker holds a dayjs value; the request holds "YYYY-MM-DD".
            getValueProps={(v: string | null) => ({ value: v ? dayjs(v) : undefined })}
            normalize={(d: dayjs.Dayjs | null) => (d ? d.format("YYYY-MM-DD") : null)}
          >
            <DatePicker
              id="voucher-expires-on"
              style={{ width: "100%" }}
              format="YYYY-MM-DD"
              disabledDate={(d) => d.isBefore(dayjs(), "day")}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} block>
            {t("resources.voucher-batches.create.submit")}
          </Button>
        </Form>
        {failure && <Alert style={{ marginTop: 12 }} type="error" showIcon role="alert" message={failure} />}
      </Card>
    </Space>
  );
}

function CreatedCodes({
  batch,
  title,
  onAnother,
  resourceName,
}: {
  batch: CreatedBatch;
  title: React.ReactNode;
  onAnother: () => void;
  resourceName: string;
}) {
  const summary = t("resources.voucher-batches.created.summary", {
    count: batch.count,
    value: formatMoney(batch.value),
    expiresOn: formatDate(batch.expiresOn),
  });
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 640 }} data-testid="voucher-codes">
      {title}
      {batch.codes.length ? (
        <>
          <Alert
            type="warning"
            showIcon
            role="alert"
            message={t("resources.voucher-batches.created.onceTitle")}
            description={t("resources.voucher-batches.created.onceBody")}
          />
          <Card
            size="small"
            title={summary}
            extra={
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                onClick={() =>
                  downloadText(`vouchers-${batch.id}.csv`, voucherCodesCsv(batch, batch.codes), "text/csv")
                }
              >
                {t("resources.voucher-batches.created.download")}
              </Button>
            }
          >
            <ol
              aria-label={t("resources.voucher-batches.created.codes")}
              style={{ margin: 0, paddingLeft: 24, maxHeight: 360, overflowY: "auto", fontFamily: "monospace" }}
            >
              {batch.codes.map((code) => (
                <li key={code}>
                  <Typography.Text copyable={{ text: code }} style={{ fontFamily: "monospace" }}>
                    {code}
                  </Typography.Text>
                </li>
              ))}
            </ol>
          </Card>
        </>
      ) : (
        // A retry of a request whose answer was lost replays the batch without its codes: they were shown then.
        <Alert
          type="warning"
          showIcon
          role="alert"
          message={summary}
          description={t("resources.voucher-batches.created.noCodes")}
        />
      )}
      <Space wrap>
        {batch.codes.length ? (
          // Leaving the codes is final: ask first.
          <Popconfirm
            title={t("resources.voucher-batches.created.leave")}
            onConfirm={onAnother}
            okText={t("resources.voucher-batches.created.another")}
          >
            <Button>{t("resources.voucher-batches.created.another")}</Button>
          </Popconfirm>
        ) : (
          <Button onClick={onAnother}>{t("resources.voucher-batches.created.another")}</Button>
        )}
        <Link to={`/${resourceName}`}>{t("resources.voucher-batches.created.back")}</Link>
      </Space>
    </Space>
  );
}
