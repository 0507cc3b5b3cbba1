import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "antd";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NotificationPreferencesCard } from "../../src/components/preferences/NotificationPreferencesCard";
import { setLocale } from "../../src/i18n";

vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve("token"),
  currentSessionUser: () => Promise.resolve(null),
}));

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const OFF = { usage80: { email: false, sms: false }, usage100: { email: false, sms: false } };

describe("the usage alerts card on the profile", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setLocale("en", { remember: false });
  });

  it("shows the stored choices as labelled switches and saves what changed with PUT", async () => {
    const calls: { method: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((_url: string, init: RequestInit) => {
        const body: unknown = init.body ? JSON.parse(init.body as string) : undefined;
        calls.push({ method: init.method ?? "GET", body });
        return Promise.resolve(json(body ?? OFF));
      }),
    );
    render(
      <App>
        <NotificationPreferencesCard />
      </App>,
    );
    const sms100 = await screen.findAllByLabelText("SMS");
    expect(sms100).toHaveLength(2);
    const save = screen.getByRole("button", { name: "Save alert choices" });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(sms100[1]!);
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>("button", { name: "Save alert choices" }).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole("button", { name: "Save alert choices" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")!.body).toEqual({
      usage80: { email: false, sms: false },
      usage100: { email: false, sms: true },
    });
  });

  it("speaks Spanish", async () => {
    setLocale("es", { remember: false });
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(json(OFF))),
    );
    render(
      <App>
        <NotificationPreferencesCard />
      </App>,
    );
    expect(await screen.findByText("Avisos de consumo")).toBeTruthy();
    // The switches appear once the preferences have loaded (the title shows before that).
    expect(await screen.findAllByLabelText("Correo electrónico")).toHaveLength(2);
  });
});
