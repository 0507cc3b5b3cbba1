import { fireEvent, screen, waitFor } from "@testing-library/react";
import { Button, Form, Input } from "antd";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useResourceAction } from "../../src/components/actions/useResourceAction";
import { linesResource } from "../../src/resources/lines";
import type { Role } from "../../src/resources/define";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

// The one way a page runs a declared action (issue 25 item 9). The line's `suspend` is declared with
// `when: { status: ["active"] }`, a reason from staff and an input field; the data provider is a
// stand-in that records the request or refuses it the way the API does.
const ACTIVE = { id: "5f0c7a52-0000-4000-8000-000000000001", msisdn: "+12025550101", status: "active" };

/** A page's own form around the hook: the button only while the action is available, and its words. */
function SuspendForm({ record }: { record: Record<string, unknown> & { id: string } }) {
  const [form] = Form.useForm();
  const suspend = useResourceAction(linesResource, "suspend", record);
  return (
    <Form form={form} layout="vertical">
      <Form.Item name="suspendReason" label="Why suspend">
        <Input />
      </Form.Item>
      {suspend.needsReason && (
        <Form.Item name="reason" label="Reason">
          <Input />
        </Form.Item>
      )}
      <p>{suspend.confirmText()}</p>
      {suspend.available && (
        <Button
          onClick={() =>
            void suspend.run(form.getFieldsValue() as Record<string, unknown>, { form }).catch(() => undefined)
          }
        >
          {suspend.label}
        </Button>
      )}
      {suspend.problem && <div role="alert">{suspend.problem}</div>}
    </Form>
  );
}

const custom = vi.fn();
const renderAs = (role: Role, record: Record<string, unknown> & { id: string }) =>
  renderWithRefine(<SuspendForm record={record} />, {
    identity: { uid: role === "subscriber" ? "alex" : "care", role },
    data: { custom },
  });

describe("useResourceAction", () => {
  // Braces: a function returned from beforeEach would run as its cleanup.
  beforeEach(() => {
    custom.mockReset().mockResolvedValue({ data: { ...ACTIVE, status: "suspended" } });
  });

  it("offers the action only while the record meets the declared `when`", async () => {
    renderAs("subscriber", { ...ACTIVE, status: "suspended" });
    await screen.findByLabelText("Why suspend");
    expect(screen.queryByRole("button", { name: "Suspend" })).toBeNull();
  });

  it("runs it through the data provider with its idempotency key, and says the declared confirmation", async () => {
    renderAs("subscriber", ACTIVE);
    // The subscriber gives no reason: the declaration asks staff only.
    expect(screen.queryByLabelText("Reason")).toBeNull();
    expect(await screen.findByText(/^Suspend \(202\) 555-0101\? Calls, texts and data stop/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Why suspend"), { target: { value: "lost" } });
    fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    await waitFor(() => expect(custom).toHaveBeenCalledTimes(1));
    const [request] = custom.mock.calls[0] as [SentRequest];
    expect(request).toMatchObject({
      url: `/api/v1/lines/${ACTIVE.id}/actions/suspend`,
      method: "post",
      payload: { suspendReason: "lost" },
    });
    expect(request.meta?.idempotencyKey).toMatch(/\w{8,}/);
  });

  it("retries a dropped connection under the same key, and starts a new attempt after a refusal", async () => {
    // The server keeps a 422 under its key: the same key would replay it after the person fixed its cause.
    custom
      .mockRejectedValueOnce({ message: "Network error", statusCode: 0 })
      .mockRejectedValueOnce({ message: "Not now.", statusCode: 422 });
    renderAs("subscriber", ACTIVE);
    fireEvent.change(await screen.findByLabelText("Why suspend"), { target: { value: "lost" } });
    for (let sent = 1; sent <= 3; sent++) {
      fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
      await waitFor(() => expect(custom).toHaveBeenCalledTimes(sent));
    }
    const keys = (custom.mock.calls as [SentRequest][]).map(([request]) => request.meta?.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it("enforces the reason the declaration asks of staff: nothing is sent without one", async () => {
    renderAs("agent", ACTIVE);
    fireEvent.change(await screen.findByLabelText("Why suspend"), { target: { value: "lost" } });
    fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    expect(await screen.findByText("Give a reason of at least 3 characters.", { selector: "div" })).toBeTruthy();
    expect(custom).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Reason"), { target: { value: "Customer called, phone lost" } });
    fireEvent.click(screen.getByRole("button", { name: "Suspend" }));
    await waitFor(() => expect(custom).toHaveBeenCalledTimes(1));
    expect((custom.mock.calls[0] as [SentRequest])[0].payload).toEqual({
      suspendReason: "lost",
      reason: "Customer called, phone lost",
    });
  });

  it("puts a 400's field error on that field, not above the form", async () => {
    custom.mockRejectedValue({
      message: "Check the highlighted fields.",
      statusCode: 400,
      errors: { suspendReason: ["one of lost, stolen, request"] },
    });
    renderAs("subscriber", ACTIVE);
    fireEvent.change(await screen.findByLabelText("Why suspend"), { target: { value: "bored" } });
    fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    expect(await screen.findByText("one of lost, stolen, request")).toBeTruthy();
    expect(screen.queryByRole("alert", { name: /Check the highlighted/ })).toBeNull();
    expect(screen.queryByText("Check the highlighted fields.")).toBeNull();
  });

  it("shows a refusal that names no field of the form above it", async () => {
    custom.mockRejectedValue({ message: "The line changed meanwhile.", statusCode: 409 });
    renderAs("subscriber", ACTIVE);
    fireEvent.click(await screen.findByRole("button", { name: "Suspend" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The line changed meanwhile.");
  });
});
