import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import type { Invoice } from "#resources/invoices";
import { renderInvoicePdf } from "../../server/domain/invoices/invoicePdf";
import { pdfText } from "../support/pdfText";

const usd = (amount: number) => ({ amount, currency: "USD" });

/** A void bill whose holder, reason and line are written in scripts Helvetica's WinAnsi lacks. */
const bill: Invoice = {
  id: "00000000-0000-4000-8000-000000000001",
  accountId: "00000000-0000-4000-8000-000000000002",
  accountName: "Łukasz Dvořák 李雷",
  ownerUid: "uid-1",
  number: "INV-2026-000123",
  periodStart: "2026-10-01",
  periodEnd: "2026-10-31",
  items: [
    {
      kind: "other",
      description: "Ajuste: Ремонт 😀\nrevisado",
      amount: usd(1250),
      usageType: null,
      roamingZone: null,
    },
  ],
  subtotal: usd(1250),
  tax: usd(103),
  taxRateBps: 825,
  credit: usd(0),
  total: usd(1353),
  amountPaid: usd(0),
  amountDue: usd(0),
  amountPending: usd(0),
  previousTotal: null,
  status: "void",
  issuedAt: "2026-11-01T08:00:00.000Z",
  dueOn: "2026-11-21",
  paidAt: null,
  voidReason: "Billed twice\tfor Ħamrun 🙃",
  createdAt: "2026-11-01T08:00:00.000Z",
  updatedAt: "2026-11-02T08:00:00.000Z",
};

describe("renderInvoicePdf", () => {
  it("renders text its font cannot write (other scripts, emoji, line breaks) rather than failing the download", async () => {
    for (const locale of ["en", "es"] as const) {
      const bytes = Buffer.from(await renderInvoicePdf(bill, "Telefonía Ćirić", locale));
      const text = await pdfText(bytes);
      // Marks drop to the base letter, letters like Ł and Ħ through the list, other scripts and emoji to "?".
      expect(text).toContain("Lukasz Dvorák ??");
      expect(text).toContain(`Billed twice for Hamrun ?`);
      expect(text).toContain("Ajuste: ?????? ? revisado");
      expect(text).toContain("Telefonía Ciric");
      // The metadata is UTF-16 and keeps what the page cannot show.
      expect((await PDFDocument.load(bytes)).getTitle()).toContain("Telefonía Ćirić");
    }
  });
});
