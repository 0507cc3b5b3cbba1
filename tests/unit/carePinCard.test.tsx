import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "antd";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CarePinCard } from "../../src/pages/security/CarePinCard";
import { setLocale } from "../../src/i18n";
import { PROBLEM_TYPES } from "../../src/resources/api";

vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve("token"),
  currentSessionUser: () => Promise.resolve(null),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": status < 400 ? "application/json" : "application/problem+json" },
  });
const NOT_SET = { set: false, updatedAt: null };
const SET = { set: true, updatedAt: "2026-11-28T08:00:00.000Z" };
const STALE = {
  type: PROBLEM_TYPES.reauthRequired,
  title: "Forbidden",
  status: 403,
  detail: "Confirm it is you: setting your care PIN needs a sign-in from the last 5 minutes.",
};

/** Answers GET with `state` and each PUT with the next of `puts`; records what was sent. */
function backend(state: unknown, puts: Response[]) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((_url: string, init: RequestInit) => {
      if ((init.method ?? "GET") === "GET") return Promise.resolve(json(state));
      sent.push(JSON.parse(init.body as string));
      return Promise.resolve(puts.shift() ?? json(SET));
    }),
  );
  return sent;
}

const renderCard = (signInAgain = vi.fn(() => Promise.resolve(true))) => {
  render(
    <App>
      <CarePinCard signInAgain={signInAgain} />
    </App>,
  );
  return signInAgain;
};

async function typePin(pin: string) {
  const field = await screen.findByLabelText("New PIN");
  fireEvent.change(field, { target: { value: pin } });
  fireEvent.click(screen.getByRole("button", { name: "Save PIN" }));
}

describe("the care PIN card under Security", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setLocale("en", { remember: false });
  });

  it("sets a first PIN in a masked numeric field, refusing an easy one before sending it", async () => {
    const sent = backend(NOT_SET, [json(SET)]);
    renderCard();
    expect(await screen.findByText("You have not set a PIN yet.")).toBeTruthy();
    expect(screen.getByText(/Customer care asks for it when you call/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Set a PIN" }));
    const field = await screen.findByLabelText<HTMLInputElement>("New PIN");
    expect(field.type).toBe("password");
    expect(field.inputMode).toBe("numeric");
    expect(field.maxLength).toBe(8);

    await typePin("1234");
    expect(await screen.findByText(/New PIN: too easy to guess/)).toBeTruthy();
    await typePin("12");
    expect(await screen.findByText("New PIN: 4 to 8 digits")).toBeTruthy();
    expect(sent).toEqual([]);

    await typePin("2580");
    await waitFor(() => expect(sent).toEqual([{ pin: "2580" }]));
    expect(await screen.findByText("Your care PIN is set. Care will ask for it when you call.")).toBeTruthy();
    expect(await screen.findByText(/^Your PIN is set\. Last changed/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Change PIN" })).toBeTruthy();
    expect(screen.queryByLabelText("New PIN")).toBeNull();
  });

  it("asks the person to sign in again when the server wants it, then saves the change", async () => {
    const sent = backend(SET, [json(STALE, 403), json(SET)]);
    const signInAgain = renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "Change PIN" }));
    await typePin("739164");
    expect(await screen.findByText("Your care PIN is changed.")).toBeTruthy();
    expect(signInAgain).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([{ pin: "739164" }, { pin: "739164" }]);
  });

  it("keeps the form when the person cancels signing in again, and shows the server's refusal at the field", async () => {
    const refused = {
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "The body is not valid: pin",
      errors: [{ path: "pin", message: "4 to 8 digits" }],
    };
    const sent = backend(SET, [json(STALE, 403), json(refused, 400)]);
    const signInAgain = renderCard(vi.fn(() => Promise.resolve(false)));
    fireEvent.click(await screen.findByRole("button", { name: "Change PIN" }));
    await typePin("739164");
    await waitFor(() => expect(signInAgain).toHaveBeenCalledTimes(1));
    expect(sent).toHaveLength(1);
    expect(screen.getByLabelText("New PIN")).toBeTruthy();
    // A refusal the portal's own check let through (a rule changed on the server) lands at the field.
    await typePin("739164");
    expect(await screen.findByText("New PIN: 4 to 8 digits")).toBeTruthy();
  });

  it("speaks Spanish", async () => {
    setLocale("es", { remember: false });
    backend(NOT_SET, []);
    renderCard();
    expect(await screen.findByText("Todavía no has creado un PIN.")).toBeTruthy();
    expect(screen.getByText("PIN de atención al cliente")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Crear un PIN" }));
    fireEvent.change(await screen.findByLabelText("PIN nuevo"), { target: { value: "0000" } });
    fireEvent.click(screen.getByRole("button", { name: "Guardar PIN" }));
    expect(await screen.findByText(/^PIN nuevo: demasiado fácil de adivinar/)).toBeTruthy();
  });

  it("says when a PIN was set in Spanish, once punctuated (the time ends in 'a.m.')", async () => {
    setLocale("es", { remember: false });
    backend(SET, []);
    renderCard();
    const said = await screen.findByText(/^Tu PIN está configurado\. Último cambio: /);
    expect(said.textContent).toMatch(/m\.$/);
    expect(said.textContent).not.toContain("..");
  });
});
