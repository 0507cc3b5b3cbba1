import { useEffect, useState } from "react";
import { App, Button, Card, Form, Input, Select, Skeleton } from "antd";
import type { Rule } from "antd/es/form";
import { getLocale, LOCALES, setLocale, translate as t, type Locale } from "../../i18n";
import type { ApiError } from "../../providers/apiClient";
import { dataProvider } from "../../providers/dataProvider";
import { contactPhoneSchema, profileSchema, type Address, type Profile } from "../../resources/profile";
import { AddressFields } from "../../components/address/AddressFields";

interface ProfileForm {
  name: string;
  contactEmail?: string | null;
  contactPhone?: string | null;
  language: Locale;
  address?: Partial<Address> | null;
}

const emptyToNull = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);

/** The server's rule of a top-level field, the message in the reader's language. */
const rule = (field: "name" | "contactEmail" | "contactPhone"): Rule => ({
  validator: (_rule, value: string | null | undefined) => {
    const given = emptyToNull(value);
    if (field !== "name" && given === null) return Promise.resolve();
    const schema = field === "contactPhone" ? contactPhoneSchema : profileSchema.shape[field];
    return schema.safeParse(given ?? "").success
      ? Promise.resolve()
      : Promise.reject(new Error(t(`profile.errors.${field}`)));
  },
});

/** A language named in the reader's own ("inglés" on a Spanish page): the picker names each in itself. */
const languageIn = (language: Locale): string =>
  new Intl.DisplayNames([getLocale()], { type: "language" }).of(language) ?? language;

/**
 * The person's name, contact email and phone, language and postal address (GET/PUT /me/profile),
 * one column at 360 px. The server checks every field again; its messages land at the field.
 */
export function ProfileDetailsCard() {
  const { message } = App.useApp();
  const [form] = Form.useForm<ProfileForm>();
  const [loaded, setLoaded] = useState(false);
  const [withAddress, setWithAddress] = useState(false);
  const [saving, setSaving] = useState(false);
  /** The language saved in the profile, when the page speaks another (picked on the sign-in page or the home). */
  const [savedLanguage, setSavedLanguage] = useState<Locale>();

  useEffect(() => {
    let active = true;
    dataProvider.custom!<{ profile: Profile }>({ url: "/me/profile", method: "get" })
      .then(({ data: { profile } }) => {
        if (!active) return;
        // The row starts at the language the page speaks: the reader's latest choice, so the profile never
        // says "English" on a Spanish page; the saved one is named under it until the form is saved.
        form.setFieldsValue({ ...profile, language: getLocale() });
        setSavedLanguage(profile.language !== getLocale() ? profile.language : undefined);
        setWithAddress(profile.address !== null);
        setLoaded(true);
      })
      .catch(() => {
        if (!active) return;
        void message.error(t("profile.details.loadFailed"));
        form.setFieldsValue({ language: getLocale() });
        setLoaded(true);
      });
    return () => {
      active = false;
    };
  }, [form, message]);

  const save = async (values: ProfileForm) => {
    setSaving(true);
    const address =
      withAddress && values.address ? { ...values.address, line2: emptyToNull(values.address.line2) } : null;
    const body = {
      name: values.name?.trim() ?? "",
      contactEmail: emptyToNull(values.contactEmail),
      contactPhone: emptyToNull(values.contactPhone),
      language: values.language,
      address,
    };
    try {
      const {
        data: { profile },
      } = await dataProvider.custom!<{ profile: Profile }>({ url: "/me/profile", method: "put", payload: body });
      form.setFieldsValue(profile);
      setSavedLanguage(undefined);
      void message.success(t("profile.details.saved"));
      if (profile.language !== getLocale()) setLocale(profile.language);
    } catch (error) {
      const errors = (error as ApiError).errors as Record<string, string[]> | undefined;
      // The server's message, in the reader's language where the portal knows the field.
      if (errors)
        form.setFields(
          Object.entries(errors).map(([path, messages]) => ({
            name: path.split(".") as never,
            errors: [t(`profile.errors.${path.split(".").pop()}`, undefined, messages[0])],
          })),
        );
      else void message.error((error as ApiError).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t("profile.details.title")} id="contact-details">
      {loaded ? null : <Skeleton active />}
      <Form
        noValidate
        form={form}
        layout="vertical"
        onFinish={(values) => void save(values)}
        style={{ display: loaded ? undefined : "none" }}
        requiredMark={false}
      >
        <Form.Item name="name" label={t("profile.details.name")} rules={[rule("name")]} validateTrigger="onBlur">
          <Input autoComplete="name" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="contactEmail"
          label={t("profile.details.email")}
          rules={[rule("contactEmail")]}
          validateTrigger="onBlur"
        >
          <Input type="email" autoComplete="email" inputMode="email" />
        </Form.Item>
        <Form.Item
          name="contactPhone"
          label={t("profile.details.phone")}
          rules={[rule("contactPhone")]}
          validateTrigger="onBlur"
        >
          <Input type="tel" autoComplete="tel" inputMode="tel" />
        </Form.Item>
        <Form.Item
          name="language"
          label={t("profile.details.language")}
          extra={
            savedLanguage ? t("profile.details.languageSaved", { language: languageIn(savedLanguage) }) : undefined
          }
        >
          <Select
            aria-label={t("profile.details.language")}
            // Each language in its own name, marked as such for screen readers.
            options={LOCALES.map((l) => ({ value: l, label: <span lang={l}>{t(`language.${l}`)}</span> }))}
          />
        </Form.Item>
        {withAddress ? (
          <>
            <AddressFields form={form} />
            <Button type="link" onClick={() => setWithAddress(false)} style={{ paddingInline: 0 }}>
              {t("profile.address.remove")}
            </Button>
          </>
        ) : (
          <Button onClick={() => setWithAddress(true)} block style={{ marginBottom: 16 }}>
            {t("profile.address.add")}
          </Button>
        )}
        <Button type="primary" htmlType="submit" loading={saving} block style={{ marginTop: 8 }}>
          {t("profile.details.save")}
        </Button>
      </Form>
    </Card>
  );
}
