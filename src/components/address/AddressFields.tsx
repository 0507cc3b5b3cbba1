import { useEffect, useRef } from "react";
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
  /** The form field holding the address object. */
  name?: string;
  /** What the address is for ("Delivery address"); the profile's "Address" when unset. */
  legend?: string;
  /** Start from the signed-in person's saved address (a subscriber ordering a SIM to their home). */
  prefillFromProfile?: boolean;
}) {
  const search = useRef<InputRef>(null);
  useEffect(() => {
    if (!prefillFromProfile) return;
    dataProvider.custom!<{ profile: Profile }>({ url: "/me/profile", method: "get" })
      .then(
        ({ data: { profile } }) =>
          profile.address && !form.getFieldValue([name, "line1"]) && form.setFieldsValue({ [name]: profile.address }),
      )
      .catch(() => undefined); // no saved address: the form starts empty
  }, [form, name, prefillFromProfile]);
  useEffect(() => {
    const input = search.current?.input;
    if (!placesEnabled || !input) return;
    let detach: (() => void) | undefined;
    let cancelled = false;
    attachPlaces(input, (address) => {
      form.setFieldsValue({ [name]: { ...(form.getFieldValue(name) as Partial<Address> | undefined), ...address } });
      void form
        .validateFields([
          [name, "line1"],
          [name, "city"],
          [name, "state"],
          [name, "zip"],
        ])
        .catch(() => undefined);
    })
      .then((off) => (cancelled ? off() : (detach = off)))
      .catch(console.warn);
    return () => {
      cancelled = true;
      detach?.();
    };
  }, [form, name]);

  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <legend style={{ fontSize: 16, fontWeight: 600, marginBottom: 8 }}>{legend ?? t("profile.address.title")}</legend>
      {placesEnabled ? (
        <Form.Item label={t("profile.address.search")} htmlFor="address-search" extra={t("profile.address.searchHelp")}>
          <Input id="address-search" ref={search} autoComplete="off" data-testid="address-search" />
        </Form.Item>
      ) : null}
      <Form.Item
        name={[name, "line1"]}
        label={t("profile.address.line1")}
        rules={[addressRule("line1")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-line1" maxLength={100} />
      </Form.Item>
      <Form.Item
        name={[name, "line2"]}
        label={t("profile.address.line2")}
        rules={[addressRule("line2")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-line2" maxLength={100} />
      </Form.Item>
      <Form.Item
        name={[name, "city"]}
        label={t("profile.address.city")}
        rules={[addressRule("city")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="address-level2" maxLength={60} />
      </Form.Item>
      <Form.Item name={[name, "state"]} label={t("profile.address.state")} rules={[addressRule("state")]}>
        <Select options={STATE_OPTIONS} showSearch optionFilterProp="label" aria-label={t("profile.address.state")} />
      </Form.Item>
      <Form.Item
        name={[name, "zip"]}
        label={t("profile.address.zip")}
        rules={[addressRule("zip")]}
        validateTrigger="onBlur"
      >
        <Input autoComplete="postal-code" inputMode="numeric" maxLength={10} />
      </Form.Item>
    </fieldset>
  );
}
