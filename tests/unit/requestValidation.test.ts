import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RequestInvalid, validatorCompiler } from "../../server/lib/requestValidation";
import { validationText } from "../../server/i18n/validationText";

const check = (schema: z.ZodType, data: unknown) =>
  (
    validatorCompiler as unknown as (route: {
      schema: z.ZodType;
    }) => (data: unknown) => { value?: unknown; error?: unknown }
  )({
    schema,
  })(data);

describe("validatorCompiler", () => {
  const params = z.object({ id: z.uuid(), page: z.coerce.number().int().min(1) });

  it("answers a valid part with the parsed value (coerced, unknown keys stripped)", () => {
    const id = "7d0f6a2e-1b2c-4d5e-8f90-123456789abc";
    expect(check(params, { id, page: "2", extra: "x" })).toEqual({ value: { id, page: 2 } });
  });

  it("refuses an invalid part with every issue, each carrying the input it refused", () => {
    const { error } = check(params, { id: "not-a-uuid", page: 0 });
    expect(error).toBeInstanceOf(RequestInvalid);
    const issues = (error as RequestInvalid).issues;
    expect(issues.map((issue) => issue.path.join("."))).toEqual(["id", "page"]);
    expect(issues.map((issue) => (issue as { input?: unknown }).input)).toEqual(["not-a-uuid", 0]);
  });

  it("words zod's own sentence in Spanish from the input the issue carries", () => {
    const { error } = check(z.object({ count: z.number() }), { count: "three" });
    const [issue] = (error as RequestInvalid).issues;
    expect(validationText(issue!, "en")).toMatch(/received string/);
    // Without the input, zod's sentence cannot be worded again and stays English ("received string").
    expect(validationText(issue!, "es")).toBe("Entrada inválida: se esperaba número, recibido texto");
  });
});
