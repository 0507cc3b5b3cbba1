import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { TopUpPage } from "../../src/pages/money/TopUpPage";

describe("the top-up page", () => {
  afterEach(() => setLocale("en", { remember: false }));

  it("with the operator's top-up payment setting empty, says card top-up is unavailable and links to vouchers", () => {
    render(
      <MemoryRouter>
        <TopUpPage gateway="" />
      </MemoryRouter>,
    );
    expect(screen.getByRole("status").textContent).toContain("Card top-up is unavailable");
    const link = screen.getByRole("link", { name: "Redeem a voucher" });
    expect(link.getAttribute("href")).toBe("/accounts");
    expect(document.body.textContent).not.toMatch(/card number/i);
  });

  it("speaks Spanish", () => {
    setLocale("es", { remember: false });
    render(
      <MemoryRouter>
        <TopUpPage gateway="" />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole("status").at(-1)!.textContent).toContain("La recarga con tarjeta no está disponible");
    expect(screen.getAllByRole("link", { name: "Canjear un cupón" }).length).toBeGreaterThan(0);
  });
});
