import { createRequire, Module } from "node:module";
import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { decorativeIcons } from "../../scripts/vite/decorativeIcons";

// antd's icons named themselves in English ("download Descargar mis datos"): the build draws them as
// decoration unless the caller names one. The real files of @ant-design/icons, transformed as the
// build transforms them, then run.
const require = createRequire(import.meta.url);
const plugin = decorativeIcons();
const transform = (code: string, id: string) =>
  (plugin.transform as (this: unknown, code: string, id: string) => { code: string } | undefined).call(
    {
      error: (message: string) => {
        throw new Error(message);
      },
    },
    code,
    id,
  );

/** The CommonJS AntdIcon, transformed, loaded as if from its own place (its requires resolve there). */
function transformedAntdIcon() {
  const file = require.resolve("@ant-design/icons/lib/components/AntdIcon.js");
  const module = new Module(file) as Module & { _compile(code: string, file: string): void; paths: string[] };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(file);
  module._compile(transform(readFileSync(file, "utf8"), file)!.code, file);
  return (module.exports as { default: Parameters<typeof createElement>[0] }).default;
}

const EDIT = require("@ant-design/icons-svg/lib/asn/EditOutlined").default as object;

describe("antd's icons in the build", () => {
  it("are decoration when drawn beside words, and named when their caller names them", () => {
    const Icon = transformedAntdIcon();
    // The icon's own element (its <svg> is aria-hidden either way).
    const outer = (props: object) => /^<span[^>]*>/.exec(renderToStaticMarkup(createElement(Icon, props)))![0];
    const plain = outer({ icon: EDIT });
    expect(plain).toContain('aria-hidden="true"');
    expect(plain).not.toContain("aria-label");
    expect(plain).not.toContain('role="img"');

    const named = outer({ icon: EDIT, "aria-label": "Editar" });
    expect(named).toContain('aria-label="Editar"');
    expect(named).toContain('role="img"');
    expect(named).not.toContain("aria-hidden");
  });

  it("the ES build is transformed too, and other files are left alone", () => {
    const file = require.resolve("@ant-design/icons/es/components/AntdIcon.js");
    const code = transform(readFileSync(file, "utf8"), file)!.code;
    expect(code).toContain("decorativeIconNamed(props)");
    expect(code).not.toContain('"aria-label": icon.name');
    expect(code.startsWith("'use client'")).toBe(true);
    expect(transform("export default 1;", "/x/node_modules/antd/es/button/index.js")).toBeUndefined();
  });

  it("fails the build when an upgrade changes how the file names its icons", () => {
    expect(() => transform("export default 1;", "/x/node_modules/@ant-design/icons/es/components/AntdIcon.js")).toThrow(
      /no longer names its icons/,
    );
  });
});
