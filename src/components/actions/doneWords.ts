import { isMoney } from "../../resources/isMoney";
import { formatMoney } from "../format";

/**
 * The words an action's `done` sentence is filled with: each field of the answer as people read it,
 * and for money fields `<field>.change`, how much it moved from the record the dialog acted on.
 */
export function doneWords(answer: Record<string, unknown>, before: Record<string, unknown>): Record<string, string> {
  const words: Record<string, string> = {};
  for (const [field, value] of Object.entries(answer)) {
    if (isMoney(value)) {
      words[field] = formatMoney(value);
      const was = before[field];
      if (isMoney(was) && was.currency === value.currency)
        words[`${field}.change`] = formatMoney({
          amount: Math.abs(value.amount - was.amount),
          currency: value.currency,
        });
    } else if (typeof value === "string" || typeof value === "number") words[field] = String(value);
  }
  return words;
}
