import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { voucherBatchesResource } from "../../src/resources/voucherBatches";
import { hasPage } from "../../src/pages/resourceViews";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

// An admin generates a batch of vouchers (issue 9 item 3): the form checks each field as the server
// does, and the codes, answered this once, are shown with a warning and saved as CSV from the page.
// The data provider is a stand-in recording the create.
const create = vi.fn();
const downloadText = vi.hoisted(() => vi.fn<(name: string, text: string, type: string) => void>());
vi.mock("../../src/providers/download", () => ({ downloadText }));
const { default: VoucherBatchCreatePage } = await import("../../src/pages/money/VoucherBatchCreatePage");

const CODES = ["7K3M-Q9XW-P2RT", "H8VD-4NZC-J6LB", "W2YF-T5GS-M9KA"];
const batch = {
  id: "3c1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  count: 3,
  value: { amount: 1000, currency: "USD" },
  expiresOn: "2030-01-31",
  redeemedCount: 0,
  createdAt: "2026-11-27T10:00:00.000Z",
  codes: CODES,
};

/** Renders the page and waits for its form (Refine renders once the identity is known). */
async function renderPage() {
  renderWithRefine(<VoucherBatchCreatePage resource={voucherBatchesResource} />, {
    identity: { uid: "admin", role: "admin" },
    data: { create },
  });
  await screen.findByRole("button", { name: /Generate vouchers|Generar cupones/ });
}

function fill(count: string, value: string) {
  fireEvent.change(screen.getByLabelText("How many vouchers"), { target: { value: count } });
  fireEvent.blur(screen.getByLabelText("How many vouchers"));
  fireEvent.change(screen.getByLabelText("Value of each voucher"), { target: { value } });
  fireEvent.blur(screen.getByLabelText("Value of each voucher"));
}

describe("generating vouchers", () => {
  beforeEach(() => {
    create.mockReset().mockResolvedValue({ data: batch });
    downloadText.mockReset();
  });
  afterEach(() => {
    act(() => setLocale("en", { remember: false }));
  });

  it("the declaration gives admins a create page although it has no generic form", () => {
    expect(voucherBatchesResource.form).toBeUndefined();
    expect(hasPage(voucherBatchesResource, "create")).toBe(true);
    expect(hasPage(voucherBatchesResource, "edit")).toBe(false);
  });

  it("says at each field what is missing, and sends nothing", async () => {
    await renderPage();
    fireEvent.click(screen.getByRole("button", { name: "Generate vouchers" }));
    expect(await screen.findByText("How many vouchers: fill this in.")).toBeTruthy();
    expect(await screen.findByText("Value of each voucher: fill this in.")).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it("says at each field what is out of bounds (the server's own rules), and sends nothing", async () => {
    await renderPage();
    fill("1001", "600");
    expect(await screen.findByText("How many vouchers: at most 1,000")).toBeTruthy();
    expect(await screen.findByText("Value of each voucher: at most $500.00")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Generate vouchers" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(create).not.toHaveBeenCalled();
  });

  it("posts the batch once, then shows its codes once with a warning and a CSV download of exactly those codes", async () => {
    await renderPage();
    fill("3", "10");
    fireEvent.click(screen.getByRole("button", { name: "Generate vouchers" }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const [request] = create.mock.calls[0] as [SentRequest];
    expect(request.resource).toBe("voucher-batches");
    expect(request.variables).toMatchObject({ count: 3, value: { amount: 1000, currency: "USD" } });
    expect(request.variables?.expiresOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.meta?.idempotencyKey).toMatch(/\w{8,}/);

    const shown = await screen.findByTestId("voucher-codes");
    expect(within(shown).getByRole("alert").textContent).toContain("they will not be shown again");
    const list = within(shown).getByRole("list", { name: "Voucher codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(shown.textContent).toContain("3 vouchers of $10.00 each");
    // The form is gone: the page does not invite a second batch by accident.
    expect(screen.queryByLabelText("How many vouchers")).toBeNull();

    fireEvent.click(within(shown).getByRole("button", { name: /Download CSV/ }));
    expect(downloadText).toHaveBeenCalledTimes(1);
    const [name, csv, type] = downloadText.mock.calls[0]!;
    expect(name).toBe(`vouchers-${batch.id}.csv`);
    expect(type).toBe("text/csv");
    expect(csv).toBe(
      [
        '"code","value_minor","currency","valid_through"',
        ...CODES.map((code) => `"${code}",1000,"USD","2030-01-31"`),
      ].join("\r\n") + "\r\n",
    );
    expect(create).toHaveBeenCalledTimes(1); // the CSV comes from the page, not from a second POST
  });

  it("a replay without codes says they were shown before", async () => {
    create.mockResolvedValue({ data: { ...batch, codes: [] } });
    await renderPage();
    fill("3", "10");
    fireEvent.click(screen.getByRole("button", { name: "Generate vouchers" }));
    expect((await screen.findByTestId("voucher-codes")).textContent).toContain("cannot be shown again");
    expect(screen.queryByRole("button", { name: /Download CSV/ })).toBeNull();
  });

  it("shows the server's field error at that field", async () => {
    create.mockRejectedValue({
      message: "Vouchers are in USD.",
      statusCode: 422,
      errors: { "value.currency": ["must be USD"] },
    });
    await renderPage();
    fill("3", "10");
    fireEvent.click(screen.getByRole("button", { name: "Generate vouchers" }));
    expect(await screen.findByText("must be USD")).toBeTruthy();
    expect(screen.queryByTestId("voucher-codes")).toBeNull();
  });

  it("speaks Spanish", async () => {
    act(() => setLocale("es", { remember: false }));
    await renderPage();
    fireEvent.change(screen.getByLabelText("Cuántos cupones"), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText("Valor de cada cupón"), { target: { value: "10" } });
    fireEvent.click(screen.getByRole("button", { name: "Generar cupones" }));
    const shown = await screen.findByTestId("voucher-codes");
    expect(within(shown).getByRole("alert").textContent).toContain("no se volverán a mostrar");
    expect(within(shown).getByRole("button", { name: /Descargar CSV/ })).toBeTruthy();
  });
});
