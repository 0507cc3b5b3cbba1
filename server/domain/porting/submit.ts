import type { Executor } from "../../audit";

/**
 * Hands a port_in order (in_progress, with its sealed transfer PIN) to the number portability
 * exchange. Placeholder: replaced by the porting module.
 */
export function submitPortIn(tx: Executor, orderId: string): Promise<void> {
  // replaced by the porting module
  void tx;
  void orderId;
  return Promise.resolve();
}
