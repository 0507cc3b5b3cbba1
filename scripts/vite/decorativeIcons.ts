import type { Plugin } from "vite";

/** antd's icon component, as the ES and CommonJS builds of @ant-design/icons ship it. */
const ANTD_ICON = /[\\/]@ant-design[\\/]icons[\\/](es|lib)[\\/]components[\\/]AntdIcon\.js$/;

/** Where it names every icon after its drawing, in English: `<span role="img" aria-label="download">`. */
const NAMED_BY_DRAWING = /role: "img",\s*"aria-label": icon\.name/;

/**
 * antd's icons are named after their drawing, in English, whatever the page's language: a Spanish
 * button read "download Descargar mis datos", a list's Create "plus-square Crear", and every icon of
 * the menu its file name ("credit-card"). Beside words an icon says nothing more, so it is drawn as
 * decoration (aria-hidden) unless whoever draws it names it (an `aria-label` of the page's words).
 * A change of that file in an upgrade fails the build rather than bring the English names back.
 */
export function decorativeIcons(): Plugin {
  return {
    name: "decorative-icons",
    transform(code, id) {
      if (!ANTD_ICON.test(id)) return undefined;
      if (!NAMED_BY_DRAWING.test(code))
        this.error(
          `${id} no longer names its icons as decorativeIcons expects: look at scripts/vite/decorativeIcons.ts`,
        );
      // Named by whoever draws it: the caller's props (spread after these) carry the name. A function
      // declaration at the end, hoisted, leaves the file's directive and imports where they were.
      const named = "\nfunction decorativeIconNamed(p) { return Boolean(p['aria-label'] || p['aria-labelledby']); }\n";
      return {
        code:
          code.replace(
            NAMED_BY_DRAWING,
            `role: decorativeIconNamed(props) ? "img" : undefined, "aria-hidden": decorativeIconNamed(props) ? undefined : true`,
          ) + named,
        map: null,
      };
    },
  };
}
