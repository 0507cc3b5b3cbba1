import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// antd's InputNumber draws two steppers that rc-input-number names "Increase Value" and "Decrease
// Value", in English whatever the page's language (a staff walk heard them in the Spanish credit
// dialog). The portal's number fields go without them (the arrow keys still step): each one says so.
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".tsx") ? [join(dir, entry.name)] : [],
  );
}

/** Each `<InputNumber …>` opening tag of a file: past its type argument, up to the `>` outside braces. */
function openingTags(text: string): string[] {
  return [...text.matchAll(/<InputNumber\b/g)].map(({ index }) => {
    let at = index + "<InputNumber".length;
    if (text[at] === "<") at = text.indexOf(">", at) + 1; // <InputNumber<number>
    for (let depth = 0; at < text.length; at++) {
      if (text[at] === "{") depth++;
      else if (text[at] === "}") depth--;
      else if (text[at] === ">" && depth === 0) break;
    }
    return text.slice(index, at + 1);
  });
}

describe("number fields", () => {
  it("every InputNumber of the portal is drawn without its English-named steppers", () => {
    const found = sources("src").flatMap((file) => {
      const text = readFileSync(file, "utf8");
      return openingTags(text).map((tag) => ({ file, tag }));
    });
    expect(found.length).toBeGreaterThan(3);
    expect(found.filter(({ tag }) => !tag.includes("controls={false}")).map(({ file }) => file)).toEqual([]);
  });
});
