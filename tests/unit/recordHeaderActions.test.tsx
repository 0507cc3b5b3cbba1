import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ResourceShowPage } from "../../src/pages/ResourceShowPage";
import { linesResource } from "../../src/resources/lines";
import { renderWithRefine } from "../support/renderWithRefine";
import { staffLine } from "./fixtures/staffLine";
import { screenWidth } from "../support/screenWidth";

// A staff walk at 1366 px: a line's page put its dozen actions in one unbreakable row (the header's
// extra is white-space: nowrap, and all of RecordActions' buttons sat in one item of Refine's Space),
// 1454 px wide, "Cancel line" off the screen. The actions are now each an item of a row that wraps.
const line = staffLine();

beforeEach(() => {
  vi.spyOn(window, "matchMedia").mockImplementation(screenWidth(1366));
});
afterEach(() => vi.restoreAllMocks());

describe("a record page's header on a desk", () => {
  it("puts the record's downloads and actions in a row that wraps, each button an item of it", async () => {
    renderWithRefine(null, {
      identity: { uid: "care", role: "agent" },
      path: `/lines/show/${line.id}`,
      resources: [{ name: "lines", list: "/lines", show: "/lines/show/:id" }],
      routes: { "/lines/show/:id": <ResourceShowPage resource={linesResource} /> },
      data: { getOne: vi.fn(() => Promise.resolve({ data: line })) },
    });
    const row = await screen.findByTestId("record-header-actions");
    await within(row).findByRole("button", { name: "Cancel line" });

    expect(row.style.display).toBe("flex");
    expect(row.style.flexWrap).toBe("wrap");
    // The header's extra says nowrap, which the row would inherit: between its buttons it must not hold.
    expect(row.style.whiteSpace).toBe("normal");
    const buttons = within(row).getAllByRole("button");
    expect(buttons.length).toBeGreaterThan(8);
    for (const button of buttons) expect(button.parentElement).toBe(row);
    // The header itself lets the buttons take the rows under the title (recordHeader.css).
    expect(row.closest(".ant-page-header")?.classList.contains("record-header")).toBe(true);
  });
});
