import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App, Form } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { AddressFields, addressRule } from "../../src/components/address/AddressFields";
import { US_STATES } from "../../src/resources/profile";
import { addressFromComponents, placesEnabled } from "../../src/components/address/placesAutocomplete";
import type { ApiRequest } from "../../src/providers/apiClient";

const apiRequest = vi.hoisted(() => vi.fn<(path: string, request?: ApiRequest) => Promise<unknown>>());
// The data provider (the one client) is real; only the request under it is a stand-in.
vi.mock("../../src/providers/apiClient", async (original) => ({
  ...(await original<typeof import("../../src/providers/apiClient")>()),
  apiRequest,
}));
const { ProfileDetailsCard } = await import("../../src/pages/profile/ProfileDetailsCard");

function AddressForm() {
  const [form] = Form.useForm();
  return (
    <Form form={form} layout="vertical">
      <AddressFields form={form} />
    </Form>
  );
}

const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);

describe("the profile's address form", () => {
  afterEach(() => act(() => setLocale("en", { remember: false })));

  it("without a maps key: the plain form, no search box and no maps script", () => {
    expect(placesEnabled).toBe(false);
    render(<AddressForm />);
    expect(screen.queryByTestId("address-search")).toBeNull();
    expect(field(/ZIP code/)).toBeTruthy();
    expect(document.querySelector('script[src*="maps.googleapis.com"]')).toBeNull();
  });

  it.each([
    ["20500", true],
    ["20500-0003", true],
    ["2050", false],
    ["20500-03", false],
    ["ABCDE", false],
  ])("takes ZIP %j: %s", async (zip, valid) => {
    const validator = (addressRule("zip") as { validator: (rule: unknown, value: unknown) => Promise<void> }).validator;
    if (valid) await expect(validator({}, zip)).resolves.toBeUndefined();
    else await expect(validator({}, zip)).rejects.toThrow("5 digits, or ZIP+4 like 20001-1234.");
  });

  it("shows a bad ZIP's message at the field", async () => {
    render(<AddressForm />);
    fireEvent.change(field(/ZIP code/), { target: { value: "2050" } });
    fireEvent.blur(field(/ZIP code/));
    expect(await screen.findByText("5 digits, or ZIP+4 like 20001-1234.")).toBeTruthy();
  });

  it("offers every US state, DC and Puerto Rico, and nothing else", async () => {
    const validator = (addressRule("state") as { validator: (rule: unknown, value: unknown) => Promise<void> })
      .validator;
    expect(US_STATES).toHaveLength(52);
    await expect(validator({}, "PR")).resolves.toBeUndefined();
    await expect(validator({}, "XX")).rejects.toThrow("Choose a state.");
  });

  it("speaks Spanish at the field", async () => {
    act(() => setLocale("es", { remember: false }));
    render(<AddressForm />);
    fireEvent.change(field(/Ciudad/), { target: { value: "" } });
    fireEvent.blur(field(/Ciudad/));
    fireEvent.change(field(/Código postal/), { target: { value: "123" } });
    fireEvent.blur(field(/Código postal/));
    expect(await screen.findByText("5 dígitos, o ZIP+4 como 20001-1234.")).toBeTruthy();
  });

  it("reads a chosen place into the fields (ZIP+4, state code, Puerto Rico as a state)", () => {
    const component = (types: string[], long: string, short = long) => ({ types, long_name: long, short_name: short });
    expect(
      addressFromComponents([
        component(["street_number"], "1600"),
        component(["route"], "Pennsylvania Avenue Northwest", "Pennsylvania Ave NW"),
        component(["locality", "political"], "Washington"),
        component(["administrative_area_level_1"], "District of Columbia", "DC"),
        component(["country"], "United States", "US"),
        component(["postal_code"], "20500"),
        component(["postal_code_suffix"], "0003"),
      ]),
    ).toEqual({ line1: "1600 Pennsylvania Avenue Northwest", city: "Washington", state: "DC", zip: "20500-0003" });
    expect(
      addressFromComponents([
        component(["locality"], "San Juan"),
        component(["country"], "Puerto Rico", "PR"),
        component(["postal_code"], "00901"),
      ]),
    ).toMatchObject({
      state: "PR",
      zip: "00901",
    });
  });
});

describe("the profile's contact details", () => {
  afterEach(() => act(() => setLocale("en", { remember: false })));
  const saved = {
    name: "Alex Rivera",
    contactEmail: "alex@example.com",
    contactPhone: "+12025550101",
    address: null,
    language: "en",
  };
  beforeEach(() => {
    apiRequest.mockReset();
    apiRequest.mockImplementation((path: string, request?: { method?: string; body?: unknown }) => {
      if (request?.method === "PUT") {
        const body = request.body as { address: { zip: string } | null };
        if (body.address?.zip === "99999")
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- Refine's HttpError is a plain object, as the api client rejects with it
          return Promise.reject({ statusCode: 400, message: "bad", errors: { "address.zip": ["no such ZIP code"] } });
        return Promise.resolve({ profile: body, saved: true });
      }
      return Promise.resolve({ profile: saved, saved: true });
    });
  });

  const renderCard = () =>
    render(
      <App>
        <ProfileDetailsCard />
      </App>,
    );

  it("on a Spanish page, the language row says Español (each language in its own name) and names the saved one in Spanish", async () => {
    act(() => setLocale("es", { remember: false }));
    renderCard();
    // The picker names each language in itself; a Spanish sentence names it in Spanish.
    await screen.findByText("Guardado como inglés hasta que guardes este formulario.");
    const shown = document.querySelector(".ant-select-selection-item");
    expect(shown?.textContent).toBe("Español");
    expect(shown?.querySelector("[lang=es]")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Idioma\s*English/);
  });

  it("loads the profile and refuses a bad phone number at the field, sending nothing", async () => {
    renderCard();
    await waitFor(() => expect(field(/Contact phone/).value).toBe("+12025550101"));
    fireEvent.change(field(/Contact phone/), { target: { value: "555-01" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(/Enter a valid phone number/)).toBeTruthy();
    expect(apiRequest.mock.calls.filter(([, r]) => r?.method === "PUT")).toHaveLength(0);
  });

  it("adds an address and saves it; the server's refusal lands at its field", async () => {
    renderCard();
    await waitFor(() => expect(field(/Name/).value).toBe("Alex Rivera"));
    fireEvent.click(screen.getByRole("button", { name: "Add an address" }));
    fireEvent.change(field(/Street and number/), { target: { value: "1 Main St" } });
    fireEvent.change(field(/City/), { target: { value: "Austin" } });
    fireEvent.change(field(/ZIP code/), { target: { value: "99999" } });
    const state = screen.getByRole("combobox", { name: "State" });
    fireEvent.change(state, { target: { value: "TX" } });
    fireEvent.keyDown(state, { key: "Enter", keyCode: 13 });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("5 digits, or ZIP+4 like 20001-1234.")).toBeTruthy();
    const put = apiRequest.mock.calls.find(([, r]) => r?.method === "PUT")!;
    expect(put[1]!.body).toMatchObject({
      address: { line1: "1 Main St", line2: null, city: "Austin", state: "TX", zip: "99999" },
    });
  });
});
