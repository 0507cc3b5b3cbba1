import { useEffect, useRef, useState } from "react";
import { useApiUrl, useCustomMutation } from "@refinedev/core";
import { Alert, Typography, type FormInstance } from "antd";
import type { DeclaredResource } from "../../resources/define";
import type { ApiError } from "../../providers/apiClient";
import { translate as t } from "../../i18n";
import { QuoteView, type QuoteData } from "../actions/QuoteView";

type AnyRecord = Record<string, unknown>;

/** How long the form must rest before its values are quoted: one request per pause, not per key. */
export const QUOTE_DELAY_MS = 400;

export interface CreateQuoteState {
  /** The server's quote of exactly the body shown; none while the values change, are incomplete or refused. */
  quote?: QuoteData;
  /** The server's words when they name no field of the form (a prepaid balance too short). */
  problem?: string;
}

/**
 * The quote of creating a record with the form's values (`POST /{name}/preview`, the create body):
 * asked once the values are complete and valid and have rested QUOTE_DELAY_MS, through the data
 * provider; only the answer to the latest values counts. A refusal's field errors land on the form's
 * fields (as a save's do), the rest of it in `problem`.
 */
export function useCreateQuote({
  resource,
  form,
  fields,
  body,
  enabled,
}: {
  resource: DeclaredResource;
  form: FormInstance;
  /** The form's fields: a refusal's errors naming one of them are shown there. */
  fields: readonly string[];
  /** The create body of the current values, as the form sends it on submit. */
  body: AnyRecord;
  enabled: boolean;
}): CreateQuoteState {
  const apiUrl = useApiUrl();
  const { mutateAsync } = useCustomMutation<QuoteData>();
  const [state, setState] = useState<CreateQuoteState & { key?: string }>({});
  const latest = useRef(0);
  const key = JSON.stringify(body);

  useEffect(() => {
    const asked = ++latest.current;
    if (!enabled) return;
    const timer = setTimeout(() => {
      void (async () => {
        // validateOnly: incomplete values stay quiet (no "fill this in" on a field not reached yet).
        const valid = await form.validateFields({ validateOnly: true }).then(
          () => true,
          () => false,
        );
        if (!valid || asked !== latest.current) return;
        try {
          const { data } = await mutateAsync({
            url: `${apiUrl}/${resource.name}/preview`,
            method: "post",
            values: JSON.parse(key) as AnyRecord,
            successNotification: false,
            errorNotification: false,
          });
          if (asked === latest.current) setState({ key, quote: data });
        } catch (e) {
          if (asked !== latest.current) return;
          const error = e as ApiError;
          const errors = Object.entries(error.errors ?? {});
          const placed = errors.filter(([path]) => fields.includes(path.split(".")[0]!));
          form.setFields(
            placed.map(([path, messages]) => ({
              name: path.split("."),
              errors: (Array.isArray(messages) ? messages : [messages]) as string[],
            })),
          );
          setState({ key, problem: placed.length && placed.length === errors.length ? undefined : error.message });
        }
      })();
    }, QUOTE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, enabled]); // eslint-disable-line react-hooks/exhaustive-deps -- the values (key) decide when to ask again

  // An answer to earlier values is never shown as the price of these.
  return state.key === key ? { quote: state.quote, problem: state.problem } : {};
}

/** What the form's values would cost, above the submit button: the quote, the server's refusal, or what to do first. */
export function CreateQuote({ quote, problem }: CreateQuoteState) {
  if (problem) return <Alert type="error" showIcon message={problem} role="alert" style={{ marginTop: 8 }} />;
  if (quote) return <QuoteView quote={quote} />;
  return <Typography.Paragraph type="secondary">{t("form.quoteFirst")}</Typography.Paragraph>;
}
