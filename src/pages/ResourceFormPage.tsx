import type { DeclaredResource } from "./declaredResource";
import { Create, Edit, useForm } from "@refinedev/antd";
import { useGetIdentity, type HttpError } from "@refinedev/core";
import { Form, Result, Typography } from "antd";
import { useParams } from "react-router";
import type { SessionUser } from "../providers/session";
import { translate as t } from "../i18n";
import { FieldInput } from "../components/FieldInput";
import { acceptsNull, fieldRules } from "../components/formRules";
import { pickerItemProps } from "../components/pickerItemProps";

type AnyRecord = Record<string, unknown>;

/** Kinds whose value is a list: left empty, they are sent as an empty list, not null. */
const LIST_KINDS = new Set(["tags", "files"]);

/** Empty inputs are sent as null (the schema says whether that is allowed), never as "" or undefined; empty lists as []. */
const clean = (values: AnyRecord, resource: DeclaredResource) =>
  Object.fromEntries(
    Object.entries(values).map(([k, v]) => {
      const empty = v === "" || v === undefined || v === null;
      return [k, empty ? (LIST_KINDS.has(resource.fields[k]?.kind ?? "") ? [] : null) : v];
    }),
  );

/**
 * Create or edit a record of any declared resource: the fields its `form` lists (minus those the
 * viewer's role may not write), rules from its zod schema, and the server's field errors shown at
 * the field (Refine's useForm maps a problem's `errors` onto the form).
 */
export function ResourceFormPage({ resource, action }: { resource: DeclaredResource; action: "create" | "edit" }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  const { formProps, saveButtonProps, query } = useForm<AnyRecord, HttpError, AnyRecord>({
    resource: resource.name,
    action,
    id,
    redirect: "show",
    // Live updates must not overwrite what the user is typing; they see changes after saving.
    liveMode: "off",
  });

  const role = user?.role;
  const fields = (resource.form?.[action] ?? []).filter((field: string) => {
    const writers = resource.fields[field]?.writableBy;
    return !writers || (role !== undefined && role !== null && writers.includes(role));
  });

  if (action === "edit" && query?.isError) {
    return <Result status={query.error?.statusCode === 403 ? "403" : "404"} title={t("show.notFound")} />;
  }

  const form = (
    <Form
      noValidate
      {...formProps}
      layout="vertical"
      style={{ maxWidth: 640 }}
      onFinish={(values) => {
        // PATCH sends only the listed fields: a record's other fields are not the form's to change.
        const picked = Object.fromEntries(fields.map((f: string) => [f, values[f]]));
        return formProps.onFinish?.(clean(picked, resource));
      }}
    >
      {fields.map((field: string) => {
        const spec = resource.fields[field];
        return (
          <Form.Item
            key={field}
            name={field}
            label={t(spec?.label ?? field)}
            extra={spec?.help ? t(spec.help) : undefined}
            rules={fieldRules(resource, field)}
            validateTrigger="onBlur"
            // The date picker holds a dayjs value; the record holds "YYYY-MM-DD".
            {...pickerItemProps(spec?.kind)}
          >
            <FieldInput name={field} spec={spec} nullable={acceptsNull(resource, field)} />
          </Form.Item>
        );
      })}
    </Form>
  );

  // A node, not a string: the page header would cut a string title short on a phone.
  const title = (
    <Typography.Title level={4} style={{ margin: 0, whiteSpace: "normal" }}>
      {action === "create" && resource.createLabel
        ? t(resource.createLabel)
        : `${t(action === "create" ? "form.createTitle" : "form.editTitle")} · ${t(resource.label)}`}
    </Typography.Title>
  );
  return action === "create" ? (
    <Create
      title={title}
      goBack={false}
      breadcrumb={role === "subscriber" ? false : undefined}
      saveButtonProps={{ ...saveButtonProps, children: t("form.save") }}
    >
      {form}
    </Create>
  ) : (
    <Edit
      title={title}
      goBack={false}
      breadcrumb={role === "subscriber" ? false : undefined}
      saveButtonProps={{ ...saveButtonProps, children: t("form.save") }}
      isLoading={query?.isLoading}
    >
      {form}
    </Edit>
  );
}
