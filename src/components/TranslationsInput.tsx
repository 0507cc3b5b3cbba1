import { Input, Select, Space, Typography } from "antd";
import { translate as t } from "../i18n";
import type { CatalogTranslations } from "../resources/catalogTranslations";

// The catalog's input for a plan's or add-on's Spanish text (issue 25): the name, and for a plan its
// features, beside the English fields of the same form. The value is the record's `translations`;
// an emptied field is left out, so the portal shows the English there.

type Translated = "name" | "features";

function withSpanish(value: CatalogTranslations | undefined, patch: NonNullable<CatalogTranslations["es"]>) {
  const es = { ...value?.es, ...patch };
  for (const key of Object.keys(es) as Translated[]) {
    const text = es[key];
    if (text === undefined || (Array.isArray(text) ? text.length === 0 : text.trim() === "")) delete es[key];
  }
  return { ...value, es };
}

export function TranslationsInput({
  id,
  value,
  onChange,
  translates,
}: {
  id?: string;
  value?: CatalogTranslations;
  onChange?: (value: CatalogTranslations) => void;
  translates: readonly Translated[];
}) {
  const prefix = id ?? "translations";
  return (
    <Space direction="vertical" style={{ width: "100%" }} size={4}>
      {translates.includes("name") && (
        <>
          <Typography.Text>
            <label htmlFor={`${prefix}-es-name`}>{t("fields.translations.name")}</label>
          </Typography.Text>
          <Input
            id={`${prefix}-es-name`}
            lang="es"
            maxLength={80}
            value={value?.es?.name ?? ""}
            onChange={(e) => onChange?.(withSpanish(value, { name: e.target.value }))}
          />
        </>
      )}
      {translates.includes("features") && (
        <>
          <Typography.Text>
            <label htmlFor={`${prefix}-es-features`}>{t("fields.translations.features")}</label>
          </Typography.Text>
          {/* The tags are Spanish text on a page of any language: marked so (screen readers, spell check). */}
          <div lang="es">
            <Select
              id={`${prefix}-es-features`}
              mode="tags"
              style={{ width: "100%" }}
              value={value?.es?.features ?? []}
              onChange={(features: string[]) => onChange?.(withSpanish(value, { features }))}
            />
          </div>
        </>
      )}
    </Space>
  );
}
