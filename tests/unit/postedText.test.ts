import { describe, expect, it } from "vitest";
import { overageDetail, postedTextIn } from "../../src/i18n/postedText";

// Dates and names as a Spanish reader's page would give them.
const words = {
  date: (iso: string) => `[${iso}]`,
  name: (english: string) => (english === "Data Pass 5 GB" ? "Pase de datos 5 GB" : english),
};
const es = (text: string) => postedTextIn(text, "es", words);

describe("postedTextIn", () => {
  it("words every form the system posts in Spanish", () => {
    const cases: [string, string][] = [
      ["Voucher top-up", "Recarga con cupón"],
      ["Card top-up", "Recarga con tarjeta"],
      ["Credit left after bill INV-2026-0007", "Saldo a favor que quedó de la factura INV-2026-0007"],
      ["Payment of bill INV-7", "Pago de la factura INV-7"],
      [
        "Payment of bill INV-7: 250 kept as a credit for the next bill",
        "Pago de la factura INV-7: 250 quedan como saldo a favor para la próxima factura",
      ],
      ["Overpayment of bill INV-7", "Pago de más en la factura INV-7"],
      [
        "Bank payment of bill INV-7 returned by the bank (R01)",
        "Pago bancario de la factura INV-7 devuelto por el banco (R01)",
      ],
      [
        "Credit from the returned bank payment of bill INV-7, already deducted from bill INV-8",
        "Saldo a favor del pago bancario devuelto de la factura INV-7, ya descontado de la factura INV-8",
      ],
      [
        "Reversal of a card top-up that failed after the gateway captured it: customer called twice",
        "Reembolso de una recarga con tarjeta que falló después de que la pasarela la cobró: customer called twice",
      ],
      ["Prepaid 15 GB: monthly plan", "Prepaid 15 GB: plan mensual"],
      [
        "Postpaid Extra 50 GB, 2026-10-12 to 2026-11-11 (+12025550102)",
        "Postpaid Extra 50 GB, del [2026-10-12] al [2026-11-11] (+12025550102)",
      ],
      [
        "Prepaid 15 GB, cycle from 2026-11-01 (+12025550102)",
        "Prepaid 15 GB, ciclo desde el [2026-11-01] (+12025550102)",
      ],
      [
        "Plan change from Postpaid Extra 50 GB to Starter for 10 of 30 days",
        "Cambio del plan Postpaid Extra 50 GB al plan Starter por 10 de 30 días",
      ],
      [
        "Renewal of add-on Data Pass 5 GB on +12025550102",
        "Renovación del complemento Pase de datos 5 GB en +12025550102",
      ],
      ["Add-on Data Pass 5 GB on +12025550102", "Complemento Pase de datos 5 GB en +12025550102"],
      [
        "Data beyond the allowance in Canada & Mexico, 1500 MB (+12025550102)",
        "Datos por encima de lo incluido en Canadá y México, 1500 MB (+12025550102)",
      ],
      [
        "Calls beyond the allowance, 12 min (+12025550102)",
        "Llamadas por encima de lo incluido, 12 min (+12025550102)",
      ],
      [
        "Texts beyond the allowance in the rest of the world, 1 message (+12025550102)",
        "Mensajes por encima de lo incluido en el resto del mundo, 1 mensaje (+12025550102)",
      ],
      [
        "Usage beyond the allowance (+12025550102): data in Europe 300 MB, calls 3 min, texts 2 messages",
        "Uso por encima de lo incluido (+12025550102): 300 MB de datos en Europa, 3 min de llamadas, 2 mensajes",
      ],
      [
        "1.5 GB of data beyond the allowance in Canada & Mexico",
        "1.5 GB de datos por encima de lo incluido en Canadá y México",
      ],
    ];
    for (const [posted, spanish] of cases) expect(es(posted)).toBe(spanish);
  });

  it("keeps a staff member's own words and anything in English as written", () => {
    expect(es("Goodwill charge agreed by phone")).toBe("Goodwill charge agreed by phone");
    expect(postedTextIn("Voucher top-up", "en", words)).toBe("Voucher top-up");
    expect(postedTextIn("Prepaid 15 GB: monthly plan", "en", words)).toBe("Prepaid 15 GB: monthly plan");
  });

  it("keeps only the quantity and number of an overage's detail in Spanish", () => {
    expect(overageDetail("Texts beyond the allowance, 3 messages (+12025550102)", "es")).toBe(
      "3 mensajes, +12025550102",
    );
    expect(overageDetail("1.5 GB of data beyond the allowance in Canada & Mexico", "es")).toBe("1.5 GB");
  });
});
