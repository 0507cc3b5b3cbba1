import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiRequest } from "../../src/providers/apiClient";
import { ReloadRequiredBanner } from "../../src/components/switches/ReloadRequiredBanner";
import { PROBLEM_TYPES } from "../../src/resources/api";

vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve(null),
  currentSessionUser: () => Promise.resolve(null),
}));

const problem = (status: number, type: string) =>
  new Response(JSON.stringify({ type, title: "x", status, detail: "Reload the page." }), {
    status,
    headers: { "content-type": "application/problem+json" },
  });

describe("the portal after a 426 from the backend", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("stays quiet on other errors, then asks the person to reload once the backend says the version is too old", async () => {
    render(<ReloadRequiredBanner />);
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(problem(409, "about:blank"))),
    );
    await expect(apiRequest("/lines")).rejects.toMatchObject({ statusCode: 409 });
    expect(screen.queryByRole("alert")).toBeNull();

    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(problem(426, PROBLEM_TYPES.upgradeRequired))),
    );
    await act(async () => {
      await expect(apiRequest("/lines")).rejects.toMatchObject({
        statusCode: 426,
        problemType: PROBLEM_TYPES.upgradeRequired,
      });
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toMatch(/newer version of the portal/);
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
  });
});
