import { useEffect, useMemo, useRef } from "react";
import { Form, Input, Select, type FormInstance, type InputRef } from "antd";
import type { Rule } from "antd/es/form";
import { translate as t } from "../../i18n";
import { addressSchema, US_STATES, type Address, type Profile } from "../../resources/profile";
import { dataProvider } from "../../providers/dataProvider";
import { attachPlaces, placesEnabled } from "./placesAutocomplete";

type AddressField = keyof Address;

/** The server's rule of one address field, with the message in the reader's language, shown at the field. */
export const addressRule = (field: AddressField): Rule => ({
  validator: (_rule, value: unknown) => {
    const empty = value === undefined || value === null || value === "";
    if (field === "line2" && empty) return Promise.resolve();
    if (!addressSchema.shape[field].safeParse(empty ? "" : value).success)
      return Promise.reject(new Error(t(`profile.errors.${field}`)));
    return Promise.resolve();
  },
});

const STATE_OPTIONS = US_STATES.map((code) => ({ value: code, label: code }));

/**
 * A US postal address inside a form (under the field `name`, "address" unless told): a plain validated form (states
 * list, ZIP or ZIP+4), and above it, when a maps places key is configured, a search box that fills
 * the fields from the chosen place.
 */
export function AddressFields({
  form,
  name = "address",
  legend,
  prefillFromProfile,
}: {
  form: FormInstance;
  /** The form field holding the address object (a path for one nested in another: ["sim", "address"]). */
  name?: string | string[];
  /** What the address is for ("Delivery address"); the profile's "Address" when unset. */
  legend?: string;
  /** Start from the signed-in person's saved address (a subscriber ordering a SIM to their home). */
  prefillFromProfile?: boolean;
}) {
  const search = useRef<InputRef>(null);
  // A stable path whatever array the caller passes each render (the effects below depend on it).
  const key = Array.isArray(name) ? name.join(".") : name;
  const path = useMemo(() => key.split("."), [key]);
  useEffect(() => {
    if (!prefillFromProfile) return;
    dataProvider.custom!<{ profile: Profile }>({ url: "/me/profile", method: "get" })
      .then(
        ({ data: { profile } }) =>
          profile.address && !form.getFieldValue([...path, "line1"]) && form.setFieldValue(path, profile.address),
      )
      .catch(() => undefined); // no saved address: the form starts empty
  }, [form, path, prefillFromProfile]);
  useEffect(() => {
    const input = search.current?.input;
    if (!placesEnabled || !input) return;
    let detach: (() => void) | undefined;
    let cancelled = false;
    attachPlaces(input, (address) => {
      form.setFieldValue(path, { ...(form.getFieldValue(path) as Partial<Address> | undefined), ...address });
      void form
        .validateFields([
          [...path, "line1"],
          [...path, "city"],
          [...path, "state"],
          [...path, "zip"],
        ])
        .catch(() => undefined);
    })
      .then((off) => (cancelled ? off() : (detach = off)))
      .catch(console.warn);
    return () => {
      cancelled = true;
      detach?.();
    };
  }, [form, path]);

  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <legend style={{ fontSize: 16, fontWeight: 600, marginBottom: 8 }}>{legend ?? t("profile.address.title")}</legend>
      {placesEnabled ? (
        <Form.Item label={t("profile.address.search")} htmlFor="address-search" extra={t("profile.address.searchHelp")}>
          <Input id="address-search" ref={search} autoComplete="off" data-testid="address-search" />
        </Form.Item>
      ) : null}
      <Form.Item
        name={[...path, "line1"]}
        label={t("profile.address.line1")}
        rules={[addressRule("line1")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-line1" maxLength={100} />
      </Form.Item>
      <Form.Item
        name={[...path, "line2"]}
        label={t("profile.address.line2")}
        rules={[addressRule("line2")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-line2" maxLength={100} />
      </Form.Item>
      <Form.Item
        name={[...path, "city"]}
        label={t("profile.address.city")}
        rules={[addressRule("city")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-level2" maxLength={60} />
      </Form.Item>
      <Form.Item name={[...path, "state"]} label={t("profile.address.state")} rules={[addressRule("state")]}>
        <Select options={STATE_OPTIONS} showSearch optionFilterProp="label" aria-label={t("profile.address.state")} />
      </Form.Item>
      <Form.Item
        name={[...path, "zip"]}
        label={t("profile.address.zip")}
        rules={[addressRule("zip")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="postal-code" inputMode="numeric" maxLength={10} />
      </Form.Item>
    </fieldset>
  );
}
