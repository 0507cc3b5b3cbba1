import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DataProvider } from "@refinedev/core";
import { describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { deviceClaimsResource } from "../../src/resources/deviceClaims";
import { toHttpError } from "../../src/providers/apiClient";
import { ResourceFormPage } from "../../src/pages/ResourceFormPage";
import { renderWithRefine } from "../support/renderWithRefine";

// The edit form of a declared resource, against a data provider that answers like the backend:
// the record, and a 400 problem naming a field when saving (the real toHttpError turns it into
// Refine's error). The server's message must appear at that field, and only the form's fields go out.
const claim = {
  id: "6f1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  lineId: "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f10",
  incident: "damage",
  occurredOn: "2026-11-01",
  description: "Screen cracked after a fall",
  status: "submitted",
  assessment: null,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-02T10:00:00.000Z",
};

function renderEdit(role: "agent" | "subscriber", update: DataProvider["update"]) {
  renderWithRefine(null, {
    identity: { uid: "u1", role },
    data: { getOne: vi.fn(() => Promise.resolve({ data: claim })), update },
    path: `/device-claims/edit/${claim.id}`,
    resources: [
      {
        name: "device-claims",
        list: "/device-claims",
        show: "/device-claims/show/:id",
        edit: "/device-claims/edit/:id",
      },
    ],
    routes: {
      "/device-claims/edit/:id": <ResourceFormPage resource={deviceClaimsResource} action="edit" />,
      "/device-claims/show/:id": <p>record page</p>,
    },
  });
}

/** Replaces the loaded description with `text` and saves. The form mounts again once the record has loaded, so wait for the filled input. */
async function retypeDescription(text: string, words = { description: "Description", save: /Save$/ }) {
  const description = await waitFor(() => {
    const input = screen.getByLabelText<HTMLTextAreaElement>(words.description);
    expect(input.value).toBe(claim.description);
    return input;
  });
  const user = userEvent.setup({ delay: null });
  await user.clear(description);
  await user.click(description);
  await user.paste(text); // as typed, without a render per key (which makes jsdom slow)
  await user.click(screen.getByRole("button", { name: words.save }));
}

describe("the generic edit form", () => {
  it("shows the server's field error at that field and sends only the form's fields", async () => {
    const update = vi.fn(() =>
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- Refine's HttpError is a plain object, as the api client rejects with it
      Promise.reject(
        toHttpError(400, {
          detail: "The body is not valid",
          errors: [{ path: "description", message: "mentions a card number; remove it" }],
        }),
      ),
    );
    renderEdit("agent", update);
    await retypeDescription("My card 4111 1111 1111 1111 was in the case");

    await screen.findByText("mentions a card number; remove it");
    expect(update).toHaveBeenCalledTimes(1);
    const sent = (update.mock.calls[0] as unknown as [{ variables: Record<string, unknown> }])[0].variables;
    expect(Object.keys(sent).sort()).toEqual(["assessment", "description", "incident", "occurredOn"]);
    expect(sent).toMatchObject({
      description: "My card 4111 1111 1111 1111 was in the case",
      occurredOn: "2026-11-01",
      assessment: null,
    });
    expect(screen.queryByText("record page")).toBeNull(); // stayed on the form
  });

  it("checks the schema's rule at the field before sending anything", async () => {
    const update = vi.fn();
    renderEdit("agent", update);
    await retypeDescription("Broken");
    await screen.findByText("Description: at least 10 characters");
    expect(update).not.toHaveBeenCalled();
  });

  it("says the schema's rule in Spanish on a Spanish page, the bound from the declaration", async () => {
    act(() => setLocale("es", { remember: false }));
    try {
      const update = vi.fn();
      renderEdit("agent", update);
      await retypeDescription("Roto", { description: "Descripción", save: /Guardar$/ });
      await screen.findByText("Descripción: al menos 10 caracteres");
      expect(update).not.toHaveBeenCalled();
    } finally {
      act(() => setLocale("en", { remember: false }));
    }
  });

  it("leaves out the fields the viewer's role may not write", async () => {
    renderEdit("subscriber", vi.fn());
    await screen.findByLabelText("Description");
    expect(screen.queryByLabelText("Assessment")).toBeNull();
  });
});
