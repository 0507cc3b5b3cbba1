import { z } from "zod";

/**
 * Catalog text in languages other than the operator's default (issue 25): `name` and `features`
 * stay the default-language (English) text; `translations.es` holds the Spanish. Strict, so an
 * unknown language or field is refused at its path instead of being stored and never shown.
 */
export const planTranslationsSchema = z
  .object({
    es: z
      .object({
        name: z.string().min(2).max(80).optional(),
        features: z.array(z.string().max(80)).max(20).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const addOnTranslationsSchema = z
  .object({
    es: z
      .object({ name: z.string().min(2).max(80).optional() })
      .strict()
      .optional(),
  })
  .strict();

/**
 * The same shapes as records carry them in answers: not strict, so the response serializer keeps its
 * fast check (a strict object does not parse as it encodes); input goes through the strict ones above
 * (the declarations' `writeRules`).
 */
export const planTranslationsRecordSchema = z.object({
  es: z.object({ name: z.string().optional(), features: z.array(z.string()).optional() }).optional(),
});
export const addOnTranslationsRecordSchema = z.object({ es: z.object({ name: z.string().optional() }).optional() });

/** What the catalog tables store (server/db/schema.ts): the union of both shapes. */
export type CatalogTranslations = { es?: { name?: string; features?: string[] } };
