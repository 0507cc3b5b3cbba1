import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { OpenNotificationParams } from "@refinedev/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { contactRequestsResource } from "../../src/resources/contactRequests";
import { ResourceFormPage } from "../../src/pages/ResourceFormPage";
import { renderWithRefine } from "../support/renderWithRefine";

// A create named as a task ("Ask us to contact you") tells the person it was sent, in the task's own
// words, not Refine's "Created Contact me".
afterEach(() => setLocale("en", { remember: false }));

async function send(locale: "en" | "es") {
  setLocale(locale, { remember: false });
  const notices: OpenNotificationParams[] = [];
  const data = renderWithRefine(null, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: { create: vi.fn(() => Promise.resolve({ data: { id: "c1" } })) },
    path: "/contact-requests/create",
    resources: [{ name: "contact-requests", create: "/contact-requests/create", show: "/contact-requests/show/:id" }],
    routes: {
      "/contact-requests/create": <ResourceFormPage resource={contactRequestsResource} action="create" />,
      "/contact-requests/show/:id": <p>the request</p>,
    },
    notify: (notice) => notices.push(notice),
  });
  // The task is the page's h1.
  await screen.findByRole("heading", {
    level: 1,
    name: locale === "en" ? "Ask us to contact you" : "Pide que te contactemos",
  });
  const user = userEvent.setup({ delay: null });
  for (const [label, option] of locale === "en"
    ? [
        ["About", "Billing"],
        ["Reach me by", "Phone call"],
      ]
    : [
        ["Tema", "Facturación"],
        ["Contactarme por", "Llamada"],
      ]) {
    fireEvent.mouseDown(screen.getByRole("combobox", { name: label }));
    fireEvent.click(await screen.findByTitle(option!));
  }
  await user.type(screen.getByRole("textbox"), "Please call me about my last bill.");
  await user.click(screen.getByRole("button", { name: locale === "en" ? /Send$/ : /Enviar$/ }));
  await waitFor(() => expect(data.create).toHaveBeenCalledTimes(1));
  await screen.findByText("the request");
  return notices.filter((notice) => notice.type === "success");
}

describe("a task sent from its create page", () => {
  it("says it was sent, with the task's words", async () => {
    expect(await send("en")).toEqual([
      expect.objectContaining({ message: "Sent", description: "Ask us to contact you" }),
    ]);
  });

  it("in Spanish too", async () => {
    expect(await send("es")).toEqual([
      expect.objectContaining({ message: "Enviado", description: "Pide que te contactemos" }),
    ]);
  });
});
