import type { Invoice } from "../../resources/invoices";
import type { Tone } from "../../components/statusTones";

/** How a bill stands, in the colour people read it by: overdue red, due blue, paid green. */
export const BILL_TONES: Record<Invoice["status"], Tone> = {
  overdue: "bad",
  issued: "waiting",
  paid: "good",
  void: "neutral",
};
