import { afterEach, describe, expect, it } from "vitest";
import { addMessages, setLocale } from "../../src/i18n";
import { fieldText } from "../../src/components/fieldText";
import { declaredIcons } from "../../scripts/vite/declaredIcons";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { plansResource } from "../../src/resources/plans";

// What a declaration says about its own words and icons (issue 8, part 4).
afterEach(() => setLocale("en"));

describe("enum labels of a declaration's own", () => {
  it("agree with their noun: a pass is 'activo' where a line is 'activa'", () => {
    addMessages({ en: { "enums.passStatus.active": "Active" }, es: { "enums.passStatus.active": "Activo" } });
    setLocale("es");
    expect(
      fieldText("status", { label: "fields.status", kind: "enum", labels: "enums.passStatus" }, { status: "active" }),
    ).toBe("Activo");
    expect(fieldText("status", { label: "fields.status", kind: "enum" }, { status: "active" })).toBe("Activa");
  });

  it("a plan is 'activo' beside 'retirado', as the catalog's staff read it", () => {
    addResourceMessages();
    setLocale("es");
    const status = plansResource.fields.status;
    expect(["draft", "active", "retired"].map((s) => fieldText("status", status, { status: s }))).toEqual([
      "Borrador",
      "Activo",
      "Retirado",
    ]);
  });
});

describe("icons named in declarations", () => {
  type Loader = (
    this: { addWatchFile(f: string): void; error(m: string): never },
    id: string,
  ) => Promise<string | undefined>;
  const context = {
    addWatchFile() {},
    error: (message: string): never => {
      throw new Error(message);
    },
  };

  it("any @ant-design/icons name is bundled by its own path, and only those named", async () => {
    const plugin = declaredIcons();
    const code = await (plugin.load as Loader).call(context, "\0virtual:declared-icons");
    expect(code).toContain('import MobileOutlined from "@ant-design/icons/es/icons/MobileOutlined.js"');
    expect(code).not.toMatch(/import \* /);
  });

  it("a name antd does not have fails the build, naming the resource", async () => {
    const plugin = declaredIcons(process.cwd(), "tests/unit/fixtures/registryWithUnknownIcon.ts");
    await expect((plugin.load as Loader).call(context, "\0virtual:declared-icons")).rejects.toThrow(
      /roaming-passes declares 'GlobeOutlined'/,
    );
  });
});
