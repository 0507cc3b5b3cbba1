import { meets, type ActionSpec } from "../../resources/define";
import { prunedValues } from "./prunedValues";

type Values = Record<string, unknown>;

/** The form's values with nested ones also under their dotted names (what `onlyWhen` compares). */
export function flattened(values: Values, prefix = ""): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) {
    out[prefix + key] = value;
    if (value && typeof value === "object" && !Array.isArray(value))
      Object.assign(out, flattened(value as Values, `${prefix}${key}.`));
  }
  return out;
}

/** `values` without the one at `path` (["number", "portIn"]), copying only the objects on the way. */
function without(values: Values, [head, ...rest]: string[]): Values {
  if (!head || !Object.hasOwn(values, head)) return values;
  const { [head]: inner, ...others } = values;
  if (!rest.length) return others;
  if (!inner || typeof inner !== "object" || Array.isArray(inner)) return values;
  return { ...others, [head]: without(inner as Values, rest) };
}

/** Without the action's form-only questions (`formOnly`): the server's input knows nothing of them. */
export function withoutFormOnly(action: ActionSpec, values: Values): Values {
  return Object.entries(action.inputFields ?? {}).reduce(
    (out, [field, spec]) => (spec.formOnly ? without(out, field.split(".")) : out),
    values,
  );
}

/**
 * An action form's values as the body sent (and checked as a whole before it is): without its
 * form-only questions, without what the form hides (a field whose `onlyWhen` the answers do not meet
 * keeps what was typed before the person changed their mind: the port-in details once a new number is
 * picked, the delivery address of an eSIM), and without empty answers.
 */
export function sentValues(action: ActionSpec, values: Values): Values {
  const answers = flattened(values);
  const shown = Object.entries(action.inputFields ?? {}).reduce(
    (out, [field, spec]) => (spec.onlyWhen && !meets(spec.onlyWhen, answers) ? without(out, field.split(".")) : out),
    values,
  );
  return prunedValues(withoutFormOnly(action, shown));
}
