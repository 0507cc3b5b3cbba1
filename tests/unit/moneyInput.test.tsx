import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import type { Money } from "../../src/resources/common";
import { MoneyInput } from "../../src/components/MoneyInput";

function Harness({ initial, seen }: { initial: Money | null; seen: (Money | null)[] }) {
  const [value, setValue] = useState<Money | null>(initial);
  return (
    <>
      <label htmlFor="price">Price</label>
      <MoneyInput
        id="price"
        value={value}
        currency="USD"
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
      />
    </>
  );
}

describe("MoneyInput", () => {
  it("shows minor units as dollars and cents, and gives back integer minor units", async () => {
    const seen: (Money | null)[] = [];
    render(<Harness initial={{ amount: 3500, currency: "USD" }} seen={seen} />);
    const input = screen.getByLabelText<HTMLInputElement>("Price");
    expect(input.value).toBe("35.00");
    const user = userEvent.setup({ delay: null });
    await user.clear(input);
    await user.type(input, "19.99");
    expect(seen.at(-1)).toEqual({ amount: 1999, currency: "USD" });
    await user.clear(input);
    expect(seen.at(-1)).toBeNull();
  });

  it("keeps the currency of the record it edits", async () => {
    const seen: (Money | null)[] = [];
    render(<Harness initial={{ amount: 500, currency: "JPY" }} seen={seen} />);
    const input = screen.getByLabelText<HTMLInputElement>("Price");
    expect(input.value).toBe("500");
    const user = userEvent.setup({ delay: null });
    await user.type(input, "0");
    expect(seen.at(-1)).toEqual({ amount: 5000, currency: "JPY" });
  });
});
