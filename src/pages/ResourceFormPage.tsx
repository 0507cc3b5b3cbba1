import type { DeclaredResource } from "./declaredResource";
import { Create, Edit, useForm } from "@refinedev/antd";
import { useGetIdentity, type HttpError } from "@refinedev/core";
import { Descriptions, Form, Result } from "antd";
import type { Rule } from "antd/es/form";
import { useState } from "react";
import { useParams } from "react-router";
import type { SessionUser } from "../providers/session";
import { translate as t } from "../i18n";
import { computedValues, failedChecks, initialValues, quotesOnCreate } from "../resources/expressions/declaration";
import { FieldInput } from "../components/FieldInput";
import { FieldValue } from "../components/FieldValue";
import { formatMoney } from "../components/format";
import { acceptsNull, fieldRules } from "../components/formRules";
import { CreateQuote, useCreateQuote } from "../components/forms/CreateQuote";
import { expressionContext } from "../components/forms/expressionContext";
import { formBody } from "../components/forms/formBody";
import { pickerItemProps } from "../components/pickerItemProps";
import { PageTitle } from "../components/PageTitle";

type AnyRecord = Record<string, unknown>;

/**
 * Create or edit a record of any declared resource: the fields its `form` lists (minus those the
 * viewer's role may not write), rules from its zod schema and its declared `checks`, and the server's
 * field errors shown at the field (Refine's useForm maps a problem's `errors` onto the form). A new
 * record starts at the declared defaults (expressions worked out now); computed fields the record
 * page shows follow the values as they change; when creating charges or refunds (`onCreate`), the
 * server's quote of the values is shown and saving waits for it.
 */
export function ResourceFormPage({ resource, action }: { resource: DeclaredResource; action: "create" | "edit" }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  const { formProps, saveButtonProps, query } = useForm<AnyRecord, HttpError, AnyRecord>({
    resource: resource.name,
    action,
    id,
    redirect: "show",
    // A create named as a task says it was sent (or bought) with the task's words, not "Created Contact me".
    successNotification:
      action === "create" && resource.createLabel
        ? () => ({
            type: "success",
            message: t(quotesOnCreate(resource) ? "form.bought" : "form.sent"),
            description: t(resource.createLabel!),
          })
        : undefined,
    // Live updates must not overwrite what the user is typing; they see changes after saving.
    liveMode: "off",
  });

  const role = user?.role;
  const fields = (resource.form?.[action] ?? []).filter((field: string) => {
    const writers = resource.fields[field]?.writableBy;
    return !writers || (role !== undefined && role !== null && writers.includes(role));
  });
  const ctx = expressionContext(role);
  // Worked out once, when the form opens (a default of `today()` is the day it was opened).
  const [initial] = useState(() => (action === "create" ? initialValues(resource, ctx) : undefined));
  const form = formProps.form!;
  const values = Form.useWatch([], form) ?? {};
  const body = formBody(resource, fields, values);
  /** The record as it would be saved, as the declaration's expressions read it. */
  const recordOf = (formValues: AnyRecord): AnyRecord => ({
    ...(action === "edit" ? query?.data?.data : initial),
    ...formBody(resource, fields, formValues),
  });

  const quoting = action === "create" && quotesOnCreate(resource);
  const priced = useCreateQuote({ resource, form, fields, body, enabled: quoting });
  const total = priced.quote?.total;

  // Computed fields the record page shows, worked out in the browser as the person types (stored ones wait for the server).
  const computed = Object.entries(computedValues(resource, recordOf(values), ctx)).filter(([field]) =>
    resource.show.includes(field),
  );

  const checked = (field: string) => (resource.checks ?? []).some((check) => check.field === field);
  /** The declared checks on one field, re-run when any other field of the form changes. */
  const checkRules = (field: string): Rule[] =>
    checked(field)
      ? [
          {
            validator: (_rule, value) => {
              if (value === undefined || value === null || value === "") return Promise.resolve(); // "required" speaks
              const failed = failedChecks(resource, recordOf(form.getFieldsValue()), ctx).find(
                (check) => check.field === field,
              );
              return failed ? Promise.reject(new Error(t(failed.message))) : Promise.resolve();
            },
          },
        ]
      : [];

  if (action === "edit" && query?.isError) {
    return <Result status={query.error?.statusCode === 403 ? "403" : "404"} title={t("show.notFound")} />;
  }

  const content = (
    <Form
      noValidate
      {...formProps}
      {...(initial ? { initialValues: initial } : {})}
      layout="vertical"
      style={{ maxWidth: 640 }}
      onFinish={(formValues) => formProps.onFinish?.(formBody(resource, fields, formValues))}
    >
      {fields.map((field: string) => {
        const spec = resource.fields[field];
        return (
          <Form.Item
            key={field}
            name={field}
            label={t(spec?.label ?? field)}
            extra={spec?.help ? t(spec.help) : undefined}
            rules={[...fieldRules(resource, field), ...checkRules(field)]}
            // A check reads other fields too: once this one was checked, a change there checks it again.
            dependencies={checked(field) ? fields.filter((other) => other !== field) : undefined}
            // A pick from a list or a calendar is a whole answer: checked at once; typing, when the field is left.
            validateTrigger={
              ["date", "enum", "reference"].includes(spec?.kind ?? "") ? ["onChange", "onBlur"] : "onBlur"
            }
            // The date picker holds a dayjs value; the record holds "YYYY-MM-DD".
            {...pickerItemProps(spec?.kind)}
          >
            <FieldInput name={field} spec={spec} nullable={acceptsNull(resource, field)} />
          </Form.Item>
        );
      })}
      {computed.length > 0 && (
        <Descriptions size="small" column={1} data-testid="computed-values">
          {computed.map(([field]) => (
            <Descriptions.Item key={field} label={t(resource.fields[field]?.label ?? field)}>
              <FieldValue name={field} spec={resource.fields[field]} record={Object.fromEntries(computed)} />
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {quoting && <CreateQuote {...priced} />}
    </Form>
  );

  // A node, not a string: the page header would cut a string title short on a phone.
  const title = (
    <PageTitle>
      {action === "create" && resource.createLabel
        ? t(resource.createLabel)
        : `${t(action === "create" ? "form.createTitle" : "form.editTitle")} · ${t(resource.label)}`}
    </PageTitle>
  );
  return action === "create" ? (
    <Create
      title={title}
      goBack={false}
      breadcrumb={role === "subscriber" ? false : undefined}
      saveButtonProps={
        quoting
          ? {
              ...saveButtonProps,
              // Saving buys: only the price shown for exactly these values, said on the button.
              disabled: saveButtonProps.disabled || !priced.quote,
              children: total ? t("form.buyFor", { total: formatMoney(total) }) : t("form.buy"),
            }
          : // A create named as a task ("Ask us to contact you") is sent, not saved.
            { ...saveButtonProps, children: t(resource.createLabel ? "form.send" : "form.save") }
      }
    >
      {content}
    </Create>
  ) : (
    <Edit
      title={title}
      goBack={false}
      breadcrumb={role === "subscriber" ? false : undefined}
      saveButtonProps={{ ...saveButtonProps, children: t("form.save") }}
      isLoading={query?.isLoading}
    >
      {content}
    </Edit>
  );
}
