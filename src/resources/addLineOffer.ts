// Without zod or the engine: the light Shop on a phone offers Add a line before the declarations load.
import { meets } from "./define";

/** The declared `when` of an account's add-line: a new line only on a working account. */
export const ADD_LINE_WHEN = { status: ["active"] } as const;

/** The add-line action's name (its words are in the dictionaries, src/i18n, for the same reason). */
export const ADD_LINE_LABEL = "resources.accounts.actions.addLine";

/** Whether an account the person holds may take a new line (ADD_LINE_WHEN); the server decides again. */
export const takesNewLine = (account: { status: string }): boolean => meets(ADD_LINE_WHEN, account);
