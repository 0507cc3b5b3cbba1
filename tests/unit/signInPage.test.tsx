import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { en } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { SignInPage, type SignInResult } from "../../src/pages/SignInPage";
import type { SignInValues } from "../../src/providers/authProvider";

type SignIn = (values: SignInValues) => Promise<SignInResult>;

function renderPage(signIn: SignIn = vi.fn<SignIn>(() => Promise.resolve({ success: true }))) {
  const user = userEvent.setup({ delay: null });
  const { rerender } = render(<SignInPage signIn={signIn} />);
  return {
    user,
    signIn,
    rerender,
    email: () => screen.getByLabelText<HTMLInputElement>(en["signIn.email"]),
    password: () => screen.getByLabelText<HTMLInputElement>(en["signIn.password"]),
    submit: () => screen.getByRole("button", { name: en["signIn.submit"] }),
  };
}

/** The element an input's aria-describedby points to. */
function description(input: HTMLElement): HTMLElement | null {
  const id = input.getAttribute("aria-describedby");
  return id ? document.getElementById(id) : null;
}

function expectFieldError(input: HTMLElement, message: string) {
  expect(input.getAttribute("aria-invalid")).toBe("true");
  const described = description(input);
  expect(described, `aria-describedby of ${input.getAttribute("name")}`).not.toBeNull();
  expect(described!.textContent).toBe(message);
}

function expectFieldValid(input: HTMLElement) {
  expect(input.getAttribute("aria-invalid")).toBe("false");
  expect(input.hasAttribute("aria-describedby")).toBe(false);
}

beforeEach(() => {
  localStorage.clear();
  setLocale("en");
});

afterEach(() => {
  setLocale("en");
  localStorage.clear();
});

describe("SignInPage", () => {
  it("starts without errors, in English", () => {
    const { email, password, submit } = renderPage();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(en["signIn.title"]);
    expectFieldValid(email());
    expectFieldValid(password());
    expect(submit().hasAttribute("disabled")).toBe(false);
    expect(screen.queryAllByRole("alert")).toEqual([]);
  });

  it("submitting empty shows both messages at their fields, focuses the email field and does not call signIn", async () => {
    const { user, signIn, email, password, submit } = renderPage();
    await user.click(submit());

    expectFieldError(email(), "Enter your email address.");
    expectFieldError(password(), "Enter your password.");
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).toEqual([
      "Enter your email address.",
      "Enter your password.",
    ]);
    expect(document.activeElement).toBe(email());
    expect(signIn).not.toHaveBeenCalled();
  });

  it("an invalid email shows the email message only and does not call signIn", async () => {
    const { user, signIn, email, password, submit } = renderPage();
    await user.type(email(), "alex@example");
    await user.type(password(), "Demo-2026!");
    await user.click(submit());

    expectFieldError(email(), en["signIn.errors.emailInvalid"]);
    expectFieldValid(password());
    expect(document.activeElement).toBe(email());
    expect(signIn).not.toHaveBeenCalled();
  });

  it("a missing password alone is shown at the password field, which gets focus", async () => {
    const { user, signIn, email, password, submit } = renderPage();
    await user.type(email(), "alex@example.com");
    await user.click(submit());

    expectFieldValid(email());
    expectFieldError(password(), en["signIn.errors.passwordRequired"]);
    expect(document.activeElement).toBe(password());
    expect(signIn).not.toHaveBeenCalled();
  });

  it("calls signIn with the email, password and remember choice", async () => {
    const { user, signIn, email, password, submit } = renderPage();
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(screen.getByRole("checkbox", { name: en["signIn.remember"] }));
    await user.click(submit());

    expect(signIn).toHaveBeenCalledExactlyOnceWith({
      email: "alex@example.com",
      password: "Demo-2026!",
      remember: false,
    });
    expect(screen.queryAllByRole("alert")).toEqual([]);
  });

  it("pressing Enter in the password field submits", async () => {
    const { user, signIn, email, password } = renderPage();
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!{Enter}");
    expect(signIn).toHaveBeenCalledExactlyOnceWith({
      email: "alex@example.com",
      password: "Demo-2026!",
      remember: true,
    });
  });

  it("a form error from signIn is shown in role=alert, not at a field", async () => {
    const message = "The email or password is incorrect. Check them and try again.";
    const signIn = vi.fn<SignIn>(() => Promise.resolve({ success: false, error: { name: "form", message } }));
    const { user, email, password, submit } = renderPage(signIn);
    await user.type(email(), "alex@example.com");
    await user.type(password(), "wrong-password");
    await user.click(submit());

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(message);
    expectFieldValid(email());
    expectFieldValid(password());
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it("a field error named email from signIn is shown at the email field", async () => {
    const signIn = vi.fn<SignIn>(() =>
      Promise.resolve({
        success: false,
        error: { name: "email", message: en["signIn.errors.emailInvalid"] },
      }),
    );
    const { user, email, password, submit } = renderPage(signIn);
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(submit());

    await waitFor(() => expectFieldError(email(), en["signIn.errors.emailInvalid"]));
    expectFieldValid(password());
    expect(screen.getAllByRole("alert")).toEqual([description(email())]);
  });

  it("a failure without an error shows the generic message", async () => {
    const { user, email, password, submit } = renderPage(vi.fn<SignIn>(() => Promise.resolve({ success: false })));
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(submit());
    expect((await screen.findByRole("alert")).textContent).toBe(en["signIn.errors.generic"]);
  });

  it("the next submit clears the previous errors", async () => {
    const signIn = vi.fn<SignIn>(() => Promise.resolve({ success: true }));
    const { user, email, password, submit } = renderPage(signIn);
    await user.click(submit());
    expect(screen.getAllByRole("alert")).toHaveLength(2);

    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(submit());
    expectFieldValid(email());
    expectFieldValid(password());
    expect(screen.queryAllByRole("alert")).toEqual([]);
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it("switching the language to Español re-renders the page in Spanish", async () => {
    const { user } = renderPage();
    const select = screen.getByRole("combobox", { name: en["language.label"] });
    await user.selectOptions(select, "Español");

    expect(screen.getByLabelText("Correo electrónico")).toBeTruthy();
    expect(screen.getByLabelText(es["signIn.password"])).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(es["signIn.title"]);
    expect(screen.getByRole("button", { name: es["signIn.submit"] })).toBeTruthy();
    expect(screen.getByRole("combobox", { name: es["language.label"] })).toHaveProperty("value", "es");
    expect(screen.queryByLabelText(en["signIn.email"])).toBeNull();
    expect(document.documentElement.lang).toBe("es");
    expect(localStorage.getItem("portal.locale")).toBe("es");
    expect(document.title).toContain(es["signIn.title"]);

    // Validation messages follow the language too.
    await user.click(screen.getByRole("button", { name: es["signIn.submit"] }));
    expectFieldError(screen.getByLabelText("Correo electrónico"), es["signIn.errors.emailRequired"]);
  });

  it("shows the pending text and disables the button while signIn is pending", async () => {
    let finish!: (result: SignInResult) => void;
    const signIn = vi.fn<SignIn>(() => new Promise<SignInResult>((resolve) => (finish = resolve)));
    const { user, email, password, submit } = renderPage(signIn);
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(submit());

    const pending = screen.getByRole("button", { name: en["signIn.submitting"] });
    expect(pending.hasAttribute("disabled")).toBe(true);
    expect(pending.closest("form")!.getAttribute("aria-busy")).toBe("true");
    expect(screen.queryByRole("button", { name: en["signIn.submit"] })).toBeNull();
    expect(signIn).toHaveBeenCalledTimes(1);

    await act(() =>
      Promise.resolve(
        finish({ success: false, error: { name: "form", message: en["signIn.errors.invalidCredential"] } }),
      ),
    );

    const button = screen.getByRole("button", { name: en["signIn.submit"] });
    expect(button.hasAttribute("disabled")).toBe(false);
    expect(button.closest("form")!.getAttribute("aria-busy")).toBe("false");
    expect(screen.getByRole("alert").textContent).toBe(en["signIn.errors.invalidCredential"]);
  });

  // In the portal, signIn also loads code (main.tsx imports firebase/auth and the portal chunk), which
  // can fail on a mobile network; the form must not stay stuck in its pending state.
  it("a signIn that rejects leaves the form usable and says sign-in did not work", async () => {
    const signIn = vi.fn<SignIn>(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    const { user, email, password } = renderPage(signIn);
    await user.type(email(), "alex@example.com");
    await user.type(password(), "Demo-2026!");
    await user.click(screen.getByRole("button", { name: en["signIn.submit"] }));

    await waitFor(() =>
      expect(screen.getByRole("button", { name: en["signIn.submit"] }).hasAttribute("disabled")).toBe(false),
    );
    expect(screen.getByRole("button", { name: en["signIn.submit"] }).closest("form")!.getAttribute("aria-busy")).toBe(
      "false",
    );
    expect([en["signIn.errors.generic"], en["signIn.errors.network"]]).toContain(screen.getByRole("alert").textContent);
  });

  it("the reveal button shows and hides the password", async () => {
    const { user, password } = renderPage();
    expect(password().type).toBe("password");
    await user.click(screen.getByRole("button", { name: en["signIn.showPassword"] }));
    expect(password().type).toBe("text");
    expect(screen.getByRole("button", { name: en["signIn.hidePassword"] }).getAttribute("aria-pressed")).toBe("true");
    await user.click(screen.getByRole("button", { name: en["signIn.hidePassword"] }));
    expect(password().type).toBe("password");
  });

  // main.tsx renders the page first, and learns only later that a Google redirect came back with an error.
  it("the outcome of a redirect sign-in given to the page already shown appears, typed values kept", async () => {
    const signIn = vi.fn<SignIn>(() => Promise.resolve({ success: true }));
    const { user, email, rerender } = renderPage(signIn);
    await user.type(email(), "alex@example.com");
    rerender(
      <SignInPage
        signIn={signIn}
        initial={{ success: false, error: { name: "form", message: "Google sign-in was cancelled." } }}
      />,
    );
    expect(screen.getByRole("alert").textContent).toBe("Google sign-in was cancelled.");
    expect(email().value).toBe("alex@example.com");
  });

  it("tells its owner once React owns the form", () => {
    const onReady = vi.fn();
    render(<SignInPage signIn={vi.fn<SignIn>()} onReady={onReady} />);
    expect(onReady).toHaveBeenCalledTimes(1);
  });
});
