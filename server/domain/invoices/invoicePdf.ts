import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { translateTo, type Locale } from "#i18n/dictionaries";
import type { MessageKey } from "#i18n/en";
import type { Money } from "#resources/common";
import type { Invoice, InvoiceItemKind } from "#resources/invoices";
import { dateText, intlTag } from "../../i18n/formats";
import { moneyText } from "../../i18n/formats";
import { itemWords, overageDetail, type CatalogNames } from "./itemText";

/** The statement's groups, in the order a statement reads: plan, add-ons, changes, usage, other. */
const GROUPS: readonly InvoiceItemKind[] = ["plan", "add_on", "proration", "overage", "other"];

/**
 * Helvetica writes WinAnsi only, and pdf-lib throws on any other character, so a holder's name or a
 * void reason in another script would make the bill fail to download. What the font cannot write
 * becomes what it can: any space or line break a space (Intl's no-break spaces in "1.234,50 EUR"),
 * a letter with a mark its base letter ("ă" → "a" through NFKD, "Ł" → "L" through a short list),
 * anything else "?". The web page shows the text as written.
 */
const plainIn = (writable: ReadonlySet<number>) => (value: string) =>
  Array.from(value.replace(/\s/g, " "), (char) => {
    if (writable.has(char.codePointAt(0)!)) return char;
    const base = (UNDECOMPOSED[char] ?? char).normalize("NFKD").replace(/\p{M}/gu, "");
    return base && Array.from(base).every((part) => writable.has(part.codePointAt(0)!)) ? base : "?";
  }).join("");

/** Latin letters whose stroke is not a combining mark, so NFKD leaves them whole. */
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ŧ: "T",
  ŧ: "t",
};

/**
 * The bill as a one-page A4 PDF (pdf-lib, standard Helvetica: nothing to embed), in the reader's
 * language (issue 25): headings, dates and amounts as its readers write them, plan and add-on names
 * from the catalog's translations (`names`). The total also goes into the document's subject so mail
 * clients and tests can read it without rendering.
 */
export async function renderInvoicePdf(
  invoice: Invoice,
  operatorName: string,
  locale: Locale = "en",
  names: CatalogNames = new Map(),
): Promise<Uint8Array> {
  const t = (key: MessageKey, params?: Record<string, unknown>) => translateTo(locale, key, params);
  const money = (amount: Money) => moneyText(amount, locale);
  const date = (iso: string) => dateText(iso, locale);
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // Both faces share the WinAnsi encoding, so one character set serves both.
  const plain = plainIn(new Set(regular.getCharacterSet()));
  pdf.setTitle(t("invoicePdf.title", { operator: operatorName, number: invoice.number }));
  pdf.setSubject(plain(t("invoicePdf.subject", { total: money(invoice.total), date: date(invoice.dueOn) })));
  pdf.setProducer("self-service portal");
  pdf.setCreationDate(new Date(invoice.issuedAt));
  const ink = rgb(0.1, 0.1, 0.12);
  let y = 780;
  const text = (words: string, x: number, options: { size?: number; font?: typeof regular; right?: boolean } = {}) => {
    const value = plain(words);
    const font = options.font ?? regular;
    const size = options.size ?? 11;
    const at = options.right ? x - font.widthOfTextAtSize(value, size) : x;
    page.drawText(value, { x: at, y, size, font, color: ink });
  };

  text(operatorName, 50, { size: 20, font: bold });
  text(t(invoice.status === "void" ? "invoicePdf.headingVoid" : "invoicePdf.heading"), 545, {
    size: 20,
    font: bold,
    right: true,
  });
  y -= 36;
  for (const [label, value] of [
    [t("invoicePdf.number"), invoice.number],
    [t("invoicePdf.holder"), invoice.accountName],
    [
      t("invoicePdf.period"),
      t("invoicePdf.periodRange", { start: date(invoice.periodStart), end: date(invoice.periodEnd) }),
    ],
    [t("invoicePdf.issued"), date(invoice.issuedAt)],
    [t("invoicePdf.due"), date(invoice.dueOn)],
  ] as const) {
    text(label, 50, { font: bold });
    text(value, 180);
    y -= 18;
  }
  y -= 20;
  text(t("invoicePdf.description"), 50, { font: bold });
  text(t("invoicePdf.amount"), 545, { font: bold, right: true });
  y -= 8;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5, color: ink });
  y -= 16;
  // The lines grouped by what they are.
  for (const kind of GROUPS) {
    const items = invoice.items.filter((item) => item.kind === kind);
    if (!items.length) continue;
    text(t(`invoicePdf.group.${kind}`), 50, { font: bold, size: 10 });
    y -= 15;
    for (const item of items) {
      text(itemWords(item, locale, names).slice(0, 80), 60);
      text(money(item.amount), 545, { right: true });
      y -= 15;
      const detail = item.kind === "overage" ? overageDetail(item.description, locale) : null;
      if (detail) {
        text(detail.slice(0, 90), 70, { size: 8 });
        y -= 13;
      }
    }
    y -= 4;
  }
  y -= 6;
  page.drawLine({ start: { x: 300, y }, end: { x: 545, y }, thickness: 0.5, color: ink });
  y -= 18;
  const rows: [string, Invoice["total"], boolean][] = [
    [t("invoicePdf.subtotal"), invoice.subtotal, false],
    [t("invoicePdf.tax", { rate: rateText(invoice.taxRateBps, locale) }), invoice.tax, false],
  ];
  if (invoice.credit.amount > 0)
    rows.push([t("invoicePdf.credit"), { ...invoice.credit, amount: -invoice.credit.amount }, false]);
  rows.push([t("invoicePdf.total"), invoice.total, true]);
  if (invoice.amountPaid.amount > 0 && invoice.amountPaid.amount < invoice.total.amount) {
    rows.push([t("invoicePdf.paidSoFar"), invoice.amountPaid, false], [t("invoicePdf.left"), invoice.amountDue, true]);
  }
  for (const [label, amount, strong] of rows) {
    text(label, 300, strong ? { font: bold, size: 13 } : {});
    text(money(amount), 545, { right: true, ...(strong ? { font: bold, size: 13 } : {}) });
    y -= 20;
  }
  // Last cycle's total beside this one.
  y -= 10;
  text(t("invoicePdf.thisBill"), 300, { font: bold });
  text(t("invoicePdf.lastBill"), 430, { font: bold });
  y -= 16;
  text(money(invoice.total), 300);
  text(invoice.previousTotal ? money(invoice.previousTotal) : t("invoicePdf.firstBill"), 430);
  y -= 20;
  if (invoice.voidReason) {
    y -= 10;
    text(t("invoicePdf.voided", { reason: invoice.voidReason.slice(0, 90) }), 50);
  }
  return pdf.save();
}

/** A tax rate in basis points as a percentage with two decimals (825 → "8.25"), in the reader's digits. */
const rateText = (bps: number, locale: Locale) =>
  new Intl.NumberFormat(intlTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(bps / 100);
