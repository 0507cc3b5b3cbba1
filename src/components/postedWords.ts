import { getLocale } from "../i18n";
import { postedTextIn } from "../i18n/postedText";
import { formatDate } from "./format";

/**
 * A text the system posted in English (a ledger reason, a bill item) in the page's language. Plan
 * and add-on names stay as posted: the portal has no Spanish catalog at hand here.
 */
export const postedText = (text: string): string =>
  postedTextIn(text, getLocale(), { date: formatDate, name: (english) => english });
