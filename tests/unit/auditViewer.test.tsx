import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "../../src/resources/auditEvents";
import AuditViewerPage from "../../src/pages/care/AuditViewerPage";
import { renderWithRefine } from "../support/renderWithRefine";

// The audit viewer speaks words (issue 23, item 8): people by name, the action as a phrase, the
// record by its number, the changed fields by their labels, ICCIDs masked; raw JSON only on request.
const line = {
  id: "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f10",
  msisdn: "+12025550103",
  iccid: "8901260000000000103",
  status: "active",
  suspendReason: null,
  updatedAt: "2026-11-20T10:00:00.000Z",
};
const base = { operator: "ATT", reason: null, requestId: "req-1", createdAt: "2026-11-20T10:00:00.000Z" };
const events: AuditEvent[] = [
  {
    ...base,
    id: "5a0c7e1a-1b2c-4d3e-8f4a-5b6c7d8e9f01",
    actorUid: "demo-agent",
    actorRole: "agent",
    actorName: "Casey Agent",
    actorEmail: "agent@att.example",
    action: "lines.swap-sim",
    targetType: "lines",
    targetId: line.id,
    targetTitle: line.msisdn,
    before: line,
    after: { ...line, iccid: "8901260000000000999", updatedAt: "2026-11-20T10:05:00.000Z" },
    reason: "SIM damaged",
  },
  {
    ...base,
    id: "5a0c7e1a-1b2c-4d3e-8f4a-5b6c7d8e9f02",
    actorUid: null,
    actorRole: "system",
    actorName: null,
    actorEmail: null,
    action: "lines.suspend",
    targetType: "lines",
    targetId: line.id,
    targetTitle: line.msisdn,
    before: line,
    after: { ...line, status: "suspended", suspendReason: "non_payment" },
  },
  {
    ...base,
    id: "5a0c7e1a-1b2c-4d3e-8f4a-5b6c7d8e9f03",
    actorUid: "demo-alex",
    actorRole: "subscriber",
    actorName: "Alex Rivera",
    actorEmail: "alex@example.com",
    action: "invoices.pay",
    targetType: "invoices",
    targetId: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
    targetTitle: "INV-2026-000042",
    before: { status: "issued" },
    after: { status: "paid" },
  },
];

function renderViewer() {
  return renderWithRefine(<AuditViewerPage />, {
    identity: { uid: "demo-admin", role: "admin" },
    data: { getList: vi.fn(() => Promise.resolve({ data: events, total: events.length })) },
    resources: [{ name: "audit-events", list: "/audit-events" }],
  });
}

const rowOf = async (text: string) => (await screen.findByText(text, { exact: false })).closest("tr") as HTMLElement;
// A refetch (the language changing, a slow first load) blurs the rows under a spinner, and a
// blurred row takes no clicks (pointer-events: none): wait for the table to settle first.
const settled = () => waitFor(() => expect(document.querySelector(".ant-spin-blur, .ant-spin-spinning")).toBeNull());

describe("the audit viewer", () => {
  it("names the actor, the action and the record in words, never by keys and ids", async () => {
    renderViewer();
    const swap = await rowOf("SIM damaged");
    expect(within(swap).getByText("Casey Agent")).toBeTruthy();
    expect(within(swap).getByText("agent@att.example · Care agent")).toBeTruthy();
    expect(within(swap).getByText("Swapped the SIM")).toBeTruthy();
    expect(within(swap).getByText("Line (202) 555-0103")).toBeTruthy();

    const paid = await rowOf("Alex Rivera");
    expect(within(paid).getByText("Paid")).toBeTruthy();
    expect(within(paid).getByText("Bill INV-2026-000042")).toBeTruthy();
    expect(screen.getAllByText("System").length).toBe(1); // the nightly suspension
    expect(screen.getByText("Suspended")).toBeTruthy();

    const table = document.querySelector(".ant-table") as HTMLElement;
    expect(table.textContent).not.toMatch(/lines\.swap-sim|lines\.suspend|invoices\.pay|demo-agent|demo-alex/);
  });

  it("lists the changed fields by their labels, ICCIDs masked, and shows the raw data only behind its toggle", async () => {
    renderViewer();
    const swap = await rowOf("SIM damaged");
    const user = userEvent.setup({ delay: null });
    await settled();
    await user.click(within(swap).getByRole("button", { name: /expand row/i }));
    const details = await screen.findByTestId("audit-details");

    const iccid = within(details).getByText("SIM number (ICCID)").closest("tr") as HTMLElement;
    expect(within(iccid).getByText("•••• 0103")).toBeTruthy();
    expect(within(iccid).getByText("•••• 0999")).toBeTruthy();
    // Only what changed: not the status, not the update time.
    expect(within(details).queryByText("Status")).toBeNull();
    expect(within(details).queryByText("Updated")).toBeNull();
    expect(details.textContent).not.toContain("8901260000000000103");
    expect(details.textContent).not.toContain('"action"');

    await user.click(within(details).getByRole("button", { name: "Show raw data" }));
    const raw = await waitFor(() => {
      const pre = details.querySelector("pre");
      expect(pre).not.toBeNull();
      return pre!;
    });
    expect(raw.textContent).toContain('"action": "lines.swap-sim"');
    expect(raw.textContent).toContain('"iccid": "•••• 0999"');
    expect(raw.textContent).not.toContain("8901260000000000");
    await user.click(within(details).getByRole("button", { name: "Hide raw data" }));
    expect(details.querySelector("pre")).toBeNull();
  });

  it("reads a suspension by the system as its status change, in Spanish too", async () => {
    const { setLocale } = await import("../../src/i18n");
    setLocale("es");
    try {
      renderViewer();
      const suspended = await rowOf("Sistema");
      expect(within(suspended).getByText("Suspendió")).toBeTruthy();
      expect(within(suspended).getByText("Línea (202) 555-0103")).toBeTruthy();
      const user = userEvent.setup({ delay: null });
      await settled();
      await user.click(within(suspended).getByRole("button", { name: /expand row|expandir/i }));
      const details = await screen.findByTestId("audit-details");
      const status = within(details).getByText("Estado").closest("tr") as HTMLElement;
      expect(within(status).getByText("Activa")).toBeTruthy();
      expect(within(status).getByText("Suspendida")).toBeTruthy();
      expect(within(details).getByRole("button", { name: "Mostrar datos sin formato" })).toBeTruthy();
    } finally {
      setLocale("en");
    }
  });
});
