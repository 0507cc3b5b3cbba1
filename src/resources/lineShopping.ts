// Without zod or the engine: the light Shop on a phone decides what it offers before the declarations load.
import { meets } from "./define";

/** The declared `when` of a line's change-plan and buy-add-on: a plan change or a pass only for a working line. */
export const SHOPPING_WHEN = { status: ["active"] } as const;

/**
 * Whether Shop offers a line's plan change and passes to its viewer: a working line (SHOPPING_WHEN)
 * whose account's money they see. Both cost the account money, which a member of it may not spend
 * (`ownership.sharedWith` in ./lines), and the home answers a line's plan price only to those who may
 * open its account (issue 28). The server decides again on every request.
 */
export const shopsFor = (line: { status: string; plan: { price?: unknown } }): boolean =>
  meets(SHOPPING_WHEN, line) && spendsFor(line);

/** Whether the viewer may spend the line's account's money (stop a pass's renewal, too): the home shows them its price. */
export const spendsFor = (line: { plan: { price?: unknown } }): boolean => line.plan.price !== undefined;
