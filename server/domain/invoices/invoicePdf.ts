import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { Invoice, InvoiceItem, InvoiceItemKind } from "#resources/invoices";
import { moneyText } from "../money/moneyText";

/** The statement's group headings and overage words (English, as the rest of the statement). */
const GROUPS: Record<InvoiceItemKind, string> = {
  plan: "Plan",
  add_on: "Add-ons",
  proration: "Plan changes (prorated)",
  overage: "Usage beyond the allowance",
  other: "Other charges",
};
const USAGE = { data: "Data", voice: "Calls", sms: "Texts" } as Record<string, string>;
const ZONES = {
  home: "at home",
  canada_mexico: "Canada & Mexico",
  europe: "Europe",
  rest_of_world: "rest of the world",
} as Record<string, string>;

/** An item as the statement words it: overage by type and zone ("Data beyond the allowance (Canada & Mexico)"), else its description. */
export function itemWords(item: Pick<InvoiceItem, "kind" | "description" | "usageType" | "roamingZone">): string {
  if (item.kind !== "overage") return item.description;
  return `${USAGE[item.usageType ?? ""] ?? "Usage"} beyond the allowance (${ZONES[item.roamingZone ?? "home"] ?? item.roamingZone})`;
}

/**
 * The bill as a one-page A4 PDF (pdf-lib, standard Helvetica: nothing to embed). Amounts are written
 * as the operator's statements are, in en-US; the total also goes into the document's subject so
 * mail clients and tests can read it without rendering.
 */
export async function renderInvoicePdf(invoice: Invoice, operatorName: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${operatorName} bill ${invoice.number}`);
  pdf.setSubject(`Total ${moneyText(invoice.total)}, due ${invoice.dueOn}`);
  pdf.setProducer("self-service portal");
  pdf.setCreationDate(new Date(invoice.issuedAt));
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.1, 0.1, 0.12);
  let y = 780;
  const text = (value: string, x: number, options: { size?: number; font?: typeof regular; right?: boolean } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 11;
    const at = options.right ? x - font.widthOfTextAtSize(value, size) : x;
    page.drawText(value, { x: at, y, size, font, color: ink });
  };

  text(operatorName, 50, { size: 20, font: bold });
  text(invoice.status === "void" ? "BILL (VOID)" : "BILL", 545, { size: 20, font: bold, right: true });
  y -= 36;
  for (const [label, value] of [
    ["Bill number", invoice.number],
    ["Account holder", invoice.accountName],
    ["Period", `${invoice.periodStart} to ${invoice.periodEnd}`],
    ["Issued", invoice.issuedAt.slice(0, 10)],
    ["Due", invoice.dueOn],
  ] as const) {
    text(label, 50, { font: bold });
    text(value, 180);
    y -= 18;
  }
  y -= 20;
  text("Description", 50, { font: bold });
  text("Amount", 545, { font: bold, right: true });
  y -= 8;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5, color: ink });
  y -= 16;
  // The lines grouped by what they are, in the order a statement reads: plan, add-ons, changes, usage, other.
  for (const kind of Object.keys(GROUPS) as InvoiceItemKind[]) {
    const items = invoice.items.filter((item) => item.kind === kind);
    if (!items.length) continue;
    text(GROUPS[kind], 50, { font: bold, size: 10 });
    y -= 15;
    for (const item of items) {
      text(itemWords(item).slice(0, 80), 60);
      text(moneyText(item.amount), 545, { right: true });
      y -= 15;
      if (item.kind === "overage") {
        text(item.description.slice(0, 90), 70, { size: 8 });
        y -= 13;
      }
    }
    y -= 4;
  }
  y -= 6;
  page.drawLine({ start: { x: 300, y }, end: { x: 545, y }, thickness: 0.5, color: ink });
  y -= 18;
  const rows: [string, Invoice["total"], boolean][] = [
    ["Subtotal", invoice.subtotal, false],
    [`Tax (${(invoice.taxRateBps / 100).toFixed(2)} %)`, invoice.tax, false],
  ];
  if (invoice.credit.amount > 0)
    rows.push(["Credit from last bill", { ...invoice.credit, amount: -invoice.credit.amount }, false]);
  rows.push(["Total", invoice.total, true]);
  if (invoice.amountPaid.amount > 0 && invoice.amountPaid.amount < invoice.total.amount) {
    rows.push(["Paid so far", invoice.amountPaid, false], ["Left to pay", invoice.amountDue, true]);
  }
  for (const [label, amount, strong] of rows) {
    text(label, 300, strong ? { font: bold, size: 13 } : {});
    text(moneyText(amount), 545, { right: true, ...(strong ? { font: bold, size: 13 } : {}) });
    y -= 20;
  }
  // Last cycle's total beside this one.
  y -= 10;
  text("This bill", 300, { font: bold });
  text("Last bill", 430, { font: bold });
  y -= 16;
  text(moneyText(invoice.total), 300);
  text(invoice.previousTotal ? moneyText(invoice.previousTotal) : "none (first bill)", 430);
  y -= 20;
  if (invoice.voidReason) {
    y -= 10;
    text(`Voided: ${invoice.voidReason.slice(0, 90)}`, 50);
  }
  return pdf.save();
}
