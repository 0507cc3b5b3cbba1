import { createContext } from "react";
import type { Home } from "../../resources/usage";

export type AccountKind = Home["accounts"][number]["type"];

/**
 * The kinds of account the signed-in person holds, as the destination's page knows them from GET
 * /home: its "More" (DestinationTasks) leaves out what a declaration offers only to the other kind
 * (`subscriberAccountType`). Undefined where the page does not ask: then every task is offered.
 */
export const HeldAccountKinds = createContext<readonly AccountKind[] | undefined>(undefined);

/** The kinds of the accounts of a GET /home answer, each once (undefined until it is in). */
export function accountKindsOf(home: Home | undefined): readonly AccountKind[] | undefined {
  return home && [...new Set(home.accounts.map((account) => account.type))];
}
