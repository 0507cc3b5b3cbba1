import type { Executor } from "../../audit";

/**
 * Hands a port_in order (in_progress, with its sealed transfer PIN) to the number portability
 * exchange. Placeholder: replaced by the porting module.
 */
export async function submitPortIn(_tx: Executor, _orderId: string): Promise<void> {
  // replaced by the porting module
  return Promise.resolve();
}
