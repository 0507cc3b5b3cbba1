import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { Invoice } from "../../../src/resources/invoices";
import { moneyText } from "../money/moneyText";

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
  for (const item of invoice.items) {
    text(item.description.slice(0, 80), 50);
    text(moneyText(item.amount), 545, { right: true });
    y -= 18;
  }
  y -= 6;
  page.drawLine({ start: { x: 300, y }, end: { x: 545, y }, thickness: 0.5, color: ink });
  y -= 18;
  for (const [label, amount, strong] of [
    ["Subtotal", invoice.subtotal, false],
    [`Tax (${(invoice.taxRateBps / 100).toFixed(2)} %)`, invoice.tax, false],
    ["Total", invoice.total, true],
  ] as const) {
    text(label, 300, strong ? { font: bold, size: 13 } : {});
    text(moneyText(amount), 545, { right: true, ...(strong ? { font: bold, size: 13 } : {}) });
    y -= 20;
  }
  if (invoice.voidReason) {
    y -= 10;
    text(`Voided: ${invoice.voidReason.slice(0, 90)}`, 50);
  }
  return pdf.save();
}
