import { fireEvent, screen } from "@testing-library/react";
import type { OpenNotificationParams } from "@refinedev/core";
import { describe, expect, it, vi } from "vitest";
import { SubscriberLinePage } from "../../src/pages/lines/SubscriberLinePage";
import { retryUnlessRefused } from "../../src/providers/queryRetry";
import { renderWithRefine } from "../support/renderWithRefine";

// A line that is not there (or not yours) is a page that says so, once: no "Error (status code: 404)"
// toasts on top of it, one per request the page made. Any other failure still raises its toast.
const refused = (statusCode: number) => () =>
  Promise.reject(
    Object.assign(
      new Error(statusCode === 404 ? "No such line." : "This line is being moved: try again in a minute."),
      { statusCode },
    ),
  );

function renderLine(statusCode: number) {
  const notify = vi.fn<(notice: OpenNotificationParams) => void>();
  renderWithRefine(null, {
    path: "/lines/show/7d0c6f1e-0000-4000-8000-000000000001",
    routes: {
      "/lines/show/:id": <SubscriberLinePage id="7d0c6f1e-0000-4000-8000-000000000001" />,
      "/": <p>the home page</p>,
    },
    identity: { uid: "demo-alex", role: "subscriber" },
    data: { getOne: vi.fn(refused(statusCode)), custom: vi.fn(refused(statusCode)) },
    notify,
  });
  return notify;
}

describe("a page whose record is not there", () => {
  it("says so on the page, with no error toast", async () => {
    const notify = renderLine(404);
    await screen.findByText("This does not exist, or it is not yours.");
    expect(notify).not.toHaveBeenCalled();
    // Not a dead end: the way back Home.
    fireEvent.click(screen.getByRole("button", { name: "Back to Home" }));
    await screen.findByText("the home page");
  });

  it("still raises the toast for a failure that is not 'not found'", async () => {
    const notify = renderLine(409);
    await vi.waitFor(() => expect(notify).toHaveBeenCalled());
    expect(notify.mock.calls[0]![0]).toMatchObject({
      type: "error",
      description: "This line is being moved: try again in a minute.",
    });
  });
});

describe("which failed reads are tried again", () => {
  it("a refusal (4xx) never, a server fault or a lost connection up to three times", () => {
    for (const status of [400, 403, 404, 409, 429]) expect(retryUnlessRefused(0, { statusCode: status })).toBe(false);
    expect(retryUnlessRefused(0, { statusCode: 503 })).toBe(true);
    expect(retryUnlessRefused(2, new TypeError("Failed to fetch"))).toBe(true);
    expect(retryUnlessRefused(3, { statusCode: 500 })).toBe(false);
  });
});
