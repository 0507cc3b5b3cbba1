import { useEffect, useState, type ReactNode } from "react";
import { useGetIdentity } from "@refinedev/core";
import { Alert, App, Form, Input, Modal, Typography, type FormInstance } from "antd";
import { TopUpHint } from "../money/TopUpHint";
import type { z } from "zod";
import { PROBLEM_TYPES } from "../../resources/api";
import { meets, type ActionSpec, type ResourceDefinition } from "../../resources/define";
import type { ApiError } from "../../providers/apiClient";
import type { SessionUser } from "../../providers/session";
import { getLocale, translate as t } from "../../i18n";
import { issueText } from "../../i18n/issueText";
import { FieldInput } from "../FieldInput";
import { AddressFields } from "../address/AddressFields";
import { zodRules } from "../formRules";
import { pickerItemProps } from "../pickerItemProps";
import { ReauthModal } from "../ReauthModal";
import { ActionResult } from "./ActionResult";
import { QuoteView, type QuoteData } from "./QuoteView";
import { useResourceAction } from "./useResourceAction";
import { flattened, sentValues } from "./sentValues";

type AnyRecord = Record<string, unknown> & { id: string };
type Values = Record<string, unknown> & { reason?: string };

/**
 * Input fields may be nested ("number.msisdn", "sim.address": the add-line input): a dotted name is a
 * path in the form and in the body sent.
 */
const pathOf = (field: string) => (field.includes(".") ? field.split(".") : field);

/**
 * The schema of a dotted field inside the input's shape (none when a level is not a plain object).
 * A field inside an optional group is optional in the form: the group's own rule, checked by the
 * server, says which of the groups is needed. Unless the field is `asked` (shown only while the
 * form's answers call for it, `onlyWhen`: add-line's port-in details once the person said they bring
 * their number): then it is as required as its own schema makes it.
 */
export function schemaAt(shape: Record<string, z.ZodType>, field: string, asked = false): z.ZodType | undefined {
  let schema: z.ZodType | undefined;
  let level: Record<string, z.ZodType> | undefined = shape;
  let inOptionalGroup = false;
  const parts = field.split(".");
  parts.forEach((part, index) => {
    schema = level?.[part];
    if (index < parts.length - 1 && schema?.safeParse(undefined).success) inOptionalGroup = true;
    const inner = schema as unknown as { unwrap?: () => unknown; shape?: Record<string, z.ZodType> } | undefined;
    const unwrapped = (inner?.shape ? inner : (inner?.unwrap?.() as typeof inner)) ?? undefined;
    level = unwrapped?.shape;
  });
  return inOptionalGroup && !asked ? schema?.optional() : schema;
}

/** Kinds drawn as a group of inputs under a legend of their own (radio buttons): the form adds no label. */
const GROUPS = new Set(["choice", "freeNumber"]);

/**
 * One named action of one record, from the declaration: what will happen (its confirmation, and the
 * server's quote when it has a preview), the input it takes and the reason staff must give, then the
 * request itself. A "sign in again" answer opens the re-authentication dialog and retries; a result
 * shown once (a PIN, a PUK, an eSIM code) opens in its own dialog.
 */
export function ActionDialog({
  resource,
  name,
  action,
  record,
  open,
  onClose,
  preset,
  object,
  extra,
}: {
  resource: ResourceDefinition;
  name: string;
  action: ActionSpec;
  record: AnyRecord;
  open: boolean;
  onClose: () => void;
  /** Inputs already chosen where the dialog was opened (the plan card a subscriber picked). */
  preset?: Values;
  /** What the action acts on, in the words of the page that opened it ("(202) 555-0101"); default the record's title. */
  object?: string;
  /** More of the task under the form, given the form to fill (a bill's Pay adds a card and picks it). */
  extra?: (form: FormInstance<Values>) => ReactNode;
}) {
  const { data: user } = useGetIdentity<SessionUser>();
  const declared = useResourceAction(resource, name, record);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [quote, setQuote] = useState<QuoteData>();
  const [reauthFor, setReauthFor] = useState<Values>();
  const [result, setResult] = useState<Record<string, unknown>>();

  const { label, needsReason } = declared;
  const error = declared.problem;
  const inputs = Object.entries(action.inputFields ?? {});
  const shape = (action.input?.shape ?? {}) as Record<string, z.ZodType>;
  // Inputs start at their schema's default (a new SIM is physical unless you pick an eSIM).
  const defaults = Object.fromEntries(
    Object.entries(shape).flatMap(([field, schema]) => {
      const parsed = schema.safeParse(undefined);
      return parsed.success && parsed.data !== undefined ? [[field, parsed.data]] : [];
    }),
  );
  // A switch the record has too starts where the record is (pay as you go shows what the line has now),
  // and a choice at its first answer (the form shows what that answer needs at once).
  const fromRecord = Object.fromEntries(
    inputs.flatMap(([field, spec]): [string, unknown][] =>
      spec.kind === "boolean" && typeof record[field] === "boolean"
        ? [[field, record[field]]]
        : spec.kind === "choice" && spec.options?.length
          ? [[field, spec.options[0]]]
          : [],
    ),
  );
  const title = object ?? declared.title;
  // An action with nothing to ask, confirm or quote (approve a claim) runs at the click.
  const asks = Boolean(action.input || needsReason || action.preview || action.confirm || action.danger);

  const close = () => {
    form.resetFields();
    setQuote(undefined);
    declared.reset();
    onClose();
  };

  // What is sent, and checked as a whole: not the form's own questions, nor what it hides, nor empty answers.
  const bodyOf = (values: Values): Values => sentValues(action, values);

  async function run(values: Values) {
    try {
      const data = await declared.run(bodyOf(values), { form });
      close();
      if (data.result)
        setResult(data.result as Record<string, unknown>); // a result shown once (a PIN, a PUK)
      else if (declared.isAccepted(data)) {
        // 202: filed for a second person's approval (the two-person rule); the record did not change.
        message.info(t("actions.accepted", { action: label }));
      } else message.success(declared.doneText(data));
    } catch (e) {
      const problem = e as ApiError;
      if (problem.problemType === PROBLEM_TYPES.reauthRequired) setReauthFor(values);
      else if (!asks) {
        message.error(`${label}: ${problem.message}`);
        close();
      }
      // Otherwise the hook put the server's words at the fields they name, or above the form.
    }
  }

  /** The form's values, checked field by field and then as a whole by the action's input schema (rules across fields). */
  async function checkedValues(): Promise<Values | null> {
    // A refusal is already shown at its fields; nothing is left to throw (it was an unhandled rejection).
    const values = await form.validateFields().catch(() => null);
    if (!values) return null;
    const whole = action.input?.safeParse(bodyOf(values));
    if (whole && !whole.success) {
      form.setFields(
        whole.error.issues
          .filter((i) => i.path.length)
          .map((i) => ({ name: i.path.map(String), errors: [issueText(i, getLocale())] })),
      );
      return null;
    }
    return values;
  }

  async function next() {
    const values = await checkedValues();
    if (!values) return;
    if (!action.preview || quote) return run(values);
    try {
      setQuote((await declared.preview(bodyOf(values), { form })) as unknown as QuoteData); // the action's preview answer
    } catch {
      // The hook showed the refusal at the fields or above the form.
    }
  }

  useEffect(() => {
    // An action that asks nothing runs as soon as its dialog opens; its state changes follow the request.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the request is the effect, not derived state
    if (open && !asks) void run({});
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps -- once per opening

  return (
    <>
      <Modal
        open={open && asks}
        title={`${label} · ${title}`}
        okText={action.preview && !quote ? t("actions.review") : label}
        okButtonProps={{ danger: action.danger, loading: declared.running }}
        // Not "Cancel": beside "Cancel line" or "Cancel order" it would read as the action itself.
        cancelText={t("actions.goBack")}
        onCancel={close}
        onOk={() => void next()}
        destroyOnHidden
      >
        {/* A declared confirmation says what will happen; without one the form speaks for itself (never "this record?"). */}
        {action.confirm && <Typography.Paragraph>{t(action.confirm, { title })}</Typography.Paragraph>}
        {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 12 }} />}
        <TopUpHint error={declared.error} />
        <Form
          noValidate
          form={form}
          layout="vertical"
          initialValues={{ ...defaults, ...fromRecord, ...preset }}
          onValuesChange={() => setQuote(undefined)}
        >
          {inputs.map(([field, spec]) => {
            // A postal address is a group of fields of its own (named address.line1, address.city, …).
            const schema = schemaAt(shape, field, Boolean(spec.onlyWhen));
            const item =
              spec.kind === "address" ? (
                <AddressFields
                  key={field}
                  form={form}
                  name={pathOf(field)}
                  legend={t(spec.label)}
                  prefillFromProfile={user?.role === "subscriber"}
                />
              ) : (
                <Form.Item
                  key={field}
                  name={pathOf(field)}
                  label={GROUPS.has(spec.kind) ? undefined : t(spec.label)}
                  extra={spec.help ? t(spec.help) : undefined}
                  rules={schema ? zodRules(schema, t(spec.label)) : []}
                  // The form holds a date as the API takes it ("YYYY-MM-DD"), never the picker's dayjs object.
                  {...pickerItemProps(spec.kind)}
                >
                  <FieldInput name={field} spec={spec} record={record} />
                </Form.Item>
              );
            if (!spec.onlyWhen) return item;
            // Shown only while the fields it depends on hold the declared values.
            return (
              <Form.Item key={field} noStyle shouldUpdate>
                {({ getFieldsValue }) => (meets(spec.onlyWhen, flattened(getFieldsValue() as Values)) ? item : null)}
              </Form.Item>
            );
          })}
          {needsReason && (
            <Form.Item
              name="reason"
              label={t("actions.reason")}
              extra={t("actions.reasonHelp")}
              rules={[{ required: true, whitespace: true, min: 3, message: t("actions.reasonRequired") }]}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} showCount />
            </Form.Item>
          )}
        </Form>
        {extra?.(form)}
        {quote && <QuoteView quote={quote} />}
      </Modal>
      <ReauthModal
        open={Boolean(reauthFor)}
        onDone={(ok) => {
          const values = reauthFor;
          setReauthFor(undefined);
          if (ok && values) void run(values);
        }}
      />
      <ActionResult action={action} label={label} result={result} onClose={() => setResult(undefined)} />
    </>
  );
}
