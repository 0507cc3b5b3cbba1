import { useState } from "react";
import { useApiUrl, useCan, useCustomMutation, useGetIdentity } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import type { FormInstance } from "antd";
import { isStaff } from "../../resources/access";
import { meets, type ActionSpec, type ResourceDefinition } from "../../resources/define";
import { findResource } from "../../resources";
import { failedAllowedIf } from "../../resources/expressions/declaration";
import { reasonSchema } from "../../resources/common";
import type { ApiError } from "../../providers/apiClient";
import { throwHttpError } from "../../providers/throwHttpError";
import type { SessionUser } from "../../providers/session";
import { translate as t } from "../../i18n";
import { recordTitleText } from "../fieldText";
import { expressionContext } from "../forms/expressionContext";
import { endsAttempt } from "./attemptKey";
import { doneWords } from "./doneWords";
import { prunedValues } from "./prunedValues";
import { withoutFormOnly } from "./sentValues";

type AnyRecord = Record<string, unknown> & { id: string };
type Values = Record<string, unknown> & { reason?: string };

export interface RunOptions {
  /** A key of the caller's own (a payment's, per dialog and choice); by default the hook's, one per attempt. */
  idempotencyKey?: string;
  /** Where field errors land: the form the values came from. */
  form?: FormInstance;
  /** Form field name per input field where the page names its fields its own way (`amount` → `other`). */
  fieldNames?: Record<string, string>;
}

/**
 * One declared action of one record, the only way a page runs one (issue 25): what the declaration says
 * about it (`when`, reason, confirmation, done words) and the request, through the data provider, so a
 * change to the declaration reaches every screen that offers the action. Field errors of a 400 land on
 * the form's fields; everything an action moves is read again after it.
 */
export function useResourceAction(resourceOrName: ResourceDefinition | string, name: string, record?: AnyRecord) {
  const resource = typeof resourceOrName === "string" ? findResource(resourceOrName) : resourceOrName;
  const action: ActionSpec | undefined = resource?.actions?.[name];
  if (!resource || !action) {
    const resourceName = typeof resourceOrName === "string" ? resourceOrName : resourceOrName.name;
    throw new Error(`No declared action "${name}" on ${resourceName}`);
  }
  const { data: user } = useGetIdentity<SessionUser>();
  const { data: access } = useCan({ resource: resource.name, action: name, params: { id: record?.id } });
  const apiUrl = useApiUrl();
  const queryClient = useQueryClient();
  const { mutateAsync } = useCustomMutation<Record<string, unknown>>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<ApiError>();
  // Shown above the form: the server's words when they name no field of the form.
  const [problem, setProblem] = useState<string>();
  // One key per attempt: a retry after a dropped connection replays, never acts twice; an answer
  // (done or refused) or a closed dialog ends the attempt.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const newAttempt = () => setKey(crypto.randomUUID());

  const label = t(action.label);
  const needsReason = action.reason === true || (action.reason === "staff" && isStaff(user?.role));
  /** The record is in a state the action allows (the server checks the same `when` and `allowedIf`; until the viewer is known, no rule holds). */
  const applies = record
    ? meets(action.when, record) &&
      !(user ? failedAllowedIf(resource, name, record, expressionContext(user.role)) : (action.allowedIf ?? [])).length
    : !action.when;
  const title = record ? recordTitleText(resource, record) : "";
  const url = `${apiUrl}/${resource.name}/${record?.id}/actions/${name}`;
  // Empty answers and the form's own questions (`formOnly`) are never sent.
  const bodyOf = (values: Values) => prunedValues(withoutFormOnly(action, values));

  /** Puts the server's (or the reason rule's) field errors on the form; false when none names a field of it. */
  function placeFieldErrors(e: ApiError, options: RunOptions): boolean {
    if (!options.form) return false;
    const known = (path: string) =>
      path === "reason" ||
      Object.hasOwn(options.fieldNames ?? {}, path) ||
      Object.hasOwn(action!.inputFields ?? {}, path.split(".")[0]!) ||
      // A field nested in the input ("number.portIn.msisdn"), declared by its dotted path or a parent's.
      Object.keys(action!.inputFields ?? {}).some((field) => path === field || path.startsWith(`${field}.`));
    const fields = Object.entries(e.errors ?? {}).filter(([path]) => known(path));
    if (!fields.length) return false;
    options.form.setFields(
      fields.map(([path, messages]) => ({
        // A nested path ("address.zip") lands on the nested field.
        name: options.fieldNames?.[path] ?? path.split("."),
        errors: (Array.isArray(messages) ? messages : [messages]) as string[],
      })),
    );
    return true;
  }

  function fail(e: ApiError, options: RunOptions): never {
    setError(e);
    setProblem(placeFieldErrors(e, options) ? undefined : e.message);
    return throwHttpError(e);
  }

  /**
   * Runs the action with the person's input. Refused before any request while a reason is needed and
   * missing, or the record is not in a state that allows it; the answer is the server's.
   */
  async function run(values: Values = {}, options: RunOptions = {}): Promise<Record<string, unknown>> {
    setError(undefined);
    setProblem(undefined);
    if (!applies) fail({ message: t("actions.notNow", { action: label }), statusCode: 409 }, options);
    // The server's own reason schema decides (3 to 500 characters once trimmed), so both refuse alike.
    if (needsReason && !reasonSchema.safeParse(values.reason ?? "").success)
      fail(
        { message: t("actions.reasonRequired"), statusCode: 400, errors: { reason: [t("actions.reasonRequired")] } },
        options,
      );
    const body = bodyOf(needsReason ? { ...values, reason: values.reason?.trim() } : values);
    setRunning(true);
    try {
      const { data } = await mutateAsync({
        url,
        method: "post",
        values: body,
        // An answer shown once (a PIN) must never be replayed to a second caller.
        meta: action!.result ? undefined : { idempotencyKey: options.idempotencyKey ?? key },
        successNotification: false,
        errorNotification: false,
      });
      newAttempt();
      // An action moves more than its record (a balance, a bill, the home's next steps, an order, the
      // audit trail): every query on the page is read again, not only the record's.
      void queryClient.invalidateQueries();
      return data;
    } catch (e) {
      if (endsAttempt((e as ApiError).statusCode)) newAttempt();
      return fail(e as ApiError, options);
    } finally {
      setRunning(false);
    }
  }

  /** The server's quote for this input (`…/preview`), which changes nothing. */
  async function preview(values: Values, options: RunOptions = {}): Promise<Record<string, unknown>> {
    setError(undefined);
    setProblem(undefined);
    setRunning(true);
    try {
      const { data } = await mutateAsync({
        url: `${url}/preview`,
        method: "post",
        values: bodyOf(values),
        successNotification: false,
        errorNotification: false,
      });
      return data;
    } catch (e) {
      return fail(e as ApiError, options);
    } finally {
      setRunning(false);
    }
  }

  return {
    resource,
    action,
    label,
    /** The viewer may run it (access) and the record allows it (`when`): offer the button only then. */
    available: Boolean(access?.can) && applies,
    applies,
    needsReason,
    /** The declared confirmation in words, with the record's title (or the page's words for it). */
    confirmText: (object?: string) => (action.confirm ? t(action.confirm, { title: object ?? title }) : undefined),
    /** The declared sentence once it is done, filled from the answer; default "<action>: done." */
    doneText: (answer: Record<string, unknown>) =>
      action.done ? t(action.done, doneWords(answer, record ?? {})) : t("actions.done", { action: label }),
    /** The 202 answer: filed for a second person's approval, nothing else changed. */
    isAccepted: (answer: unknown) => Boolean(action.accepted?.safeParse(answer).success),
    title,
    run,
    preview,
    running,
    error,
    problem,
    /** Forget the last refusal (the dialog closed); the next run is a new attempt. */
    reset: () => {
      setError(undefined);
      setProblem(undefined);
      newAttempt();
    },
  };
}

export type ResourceAction = ReturnType<typeof useResourceAction>;
