import type { Page } from "playwright-core";
import { attSeed, demoUsers } from "../../server/db/seed/demoData";

/**
 * Words of one language on a page of the other (issue 25 item 5): what a page shows, and the words
 * that give a leak away. Each list holds words that never occur in the other language's portal text
 * (whole words, case as written), and none that occur in the demo data people typed or the catalog's
 * default names, which are data rather than the portal's words (those are taken out first).
 */

/** English words that no Spanish sentence of the portal holds ("Plan", "Total", "Error", "No", "has" are Spanish too). */
export const ENGLISH_WORDS = [
  "the",
  "The",
  "your",
  "Your",
  "you",
  "You",
  "and",
  "with",
  "this",
  "This",
  "from",
  "have",
  "is",
  "are",
  "will",
  "not",
  "Save",
  "Cancel",
  "Submit",
  "Delete",
  "Edit",
  "Create",
  "Search",
  "Close",
  "Back",
  "Next",
  "Review",
  "Confirm",
  "Send",
  "Download",
  "Export",
  "Loading",
  "Select",
  "Reset",
  "required",
  "Required",
  "invalid",
  "must",
  "characters",
  "Balance",
  "balance",
  "Pay",
  "Bill",
  "bill",
  "Usage",
  "Money",
  "Home",
  "Shop",
  "Account",
  "Status",
  "Amount",
  "Active",
  "Suspended",
  "Pending",
  "Paid",
  "Overdue",
  "Line",
  "Lines",
  "Voucher",
  "voucher",
  "Sign",
  "Password",
  "Notifications",
  "Orders",
  "Help",
  "Phone",
  "Number",
  // The small words of any English sentence, and more of the portal's and antd's own words.
  "of",
  "to",
  "in",
  "for",
  "on",
  "by",
  "or",
  "at",
  "be",
  "it",
  "an",
  "View",
  "Actions",
  "Created",
  "Updated",
  "History",
  "Refresh",
  "Filter",
  "All",
  "Yes",
  "Show",
  "Add",
  "New",
  "Remove",
  "Change",
  "Done",
  "Details",
  "Open",
  "Date",
  "Name",
  "Type",
  "Description",
  "Message",
  "Subject",
  "Reason",
  "Price",
  "Sorry",
  "Please",
  "please",
  "Try",
  "again",
  "Nothing",
  "here",
];

/** Spanish words and letters that no English page of the portal holds. */
export const SPANISH_WORDS = [
  "Guardar",
  "Cancelar",
  "Enviar",
  "Buscar",
  "Editar",
  "Eliminar",
  "Cerrar",
  "Inicio",
  "Cuenta",
  "cuenta",
  "Saldo",
  "saldo",
  "Factura",
  "factura",
  "facturas",
  "Pagar",
  "pago",
  "Recargar",
  "recarga",
  "Consumo",
  "Tienda",
  "tu",
  "Tu",
  "tus",
  "el",
  "los",
  "las",
  "del",
  "una",
  "obligatorio",
];
/** Letters English never writes. */
export const SPANISH_LETTERS = /[ñÑáéíóúÁÉÍÓÚ¿¡]/u;

/**
 * Text that is data, not the portal's words: the catalog's default names and features, the demo
 * people's names, the operator's brand. Staff pages show a plan by its catalog name whatever the language.
 */
export const DATA_PHRASES: readonly string[] = [
  attSeed.name,
  ...attSeed.plans.flatMap((p) => [p.name, ...p.features]),
  ...(attSeed.addOns ?? []).map((a) => a.name),
  ...attSeed.accounts.map((a) => a.name),
  ...demoUsers.map((u) => u.displayName),
].sort((a, b) => b.length - a.length); // longest first, so a name is taken out before a shorter one inside it

/**
 * What a page says to a person: the body's text, and the labels, placeholders and titles of its
 * controls (what a screen reader says and what shows in an empty field). Text inside an element that
 * declares a language other than the page's (`lang`, e.g. a plan's Spanish name on an English page)
 * is that language's on purpose and left out.
 */
export async function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang || "en";
    let text = document.body.innerText;
    for (const el of document.body.querySelectorAll<HTMLElement>("[lang]")) {
      const own = el.getAttribute("lang") ?? "";
      if (!own || own.startsWith(pageLang)) continue;
      // Line by line, as innerText lays it out (a tags field's tags are separate lines, not one text).
      for (const line of (el.innerText || el.textContent || "").split("\n")) {
        const words = line.trim();
        if (words) text = text.split(words).join(" ");
      }
    }
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
    const labels: string[] = [];
    for (const el of document.body.querySelectorAll("input, textarea, button, a, select, [role=button]")) {
      if (!visible(el) || el.closest("[lang]:not([lang^=" + pageLang + "])")) continue;
      for (const name of ["aria-label", "placeholder", "title"]) {
        const value = el.getAttribute(name);
        if (value) labels.push(value);
      }
    }
    return `${text}\n${labels.join("\n")}`;
  });
}

export interface Leak {
  where: string;
  word: string;
  context: string;
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Each word of `words` (whole words, case as given) in `text`, once per word, with the text around it. */
export function leaksIn(where: string, text: string, words: readonly string[], letters?: RegExp): Leak[] {
  let cleaned = text;
  for (const phrase of DATA_PHRASES) cleaned = cleaned.split(phrase).join(" ");
  // Emails and web addresses are data too.
  cleaned = cleaned.replace(/\S+@\S+|https?:\/\/\S+/g, " ");
  const found: Leak[] = [];
  const context = (index: number, length: number) =>
    cleaned
      .slice(Math.max(0, index - 50), index + length + 50)
      .replace(/\s+/g, " ")
      .trim();
  for (const word of words) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}_])${escape(word)}(?![\\p{L}\\p{N}_])`, "u").exec(cleaned);
    if (match) found.push({ where, word, context: context(match.index, word.length) });
  }
  const letter = letters?.exec(cleaned);
  if (letter) found.push({ where, word: letter[0], context: context(letter.index, 1) });
  return found;
}

/** One message naming every leak, grouped by page, so one run shows them all. */
export function leakReport(leaks: readonly Leak[]): string {
  const byPage = new Map<string, Leak[]>();
  for (const leak of leaks) byPage.set(leak.where, [...(byPage.get(leak.where) ?? []), leak]);
  return [...byPage]
    .map(([where, list]) => `${where}\n${list.map((l) => `  "${l.word}" in …${l.context}…`).join("\n")}`)
    .join("\n");
}
