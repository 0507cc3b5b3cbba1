import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { bulkItemErrorText } from "../../src/pages/care/bulkItemText";

addResourceMessages();
afterEach(() => setLocale("en"));

// A bulk job's item refusals, stored as the worker's short notes, read as words (issue 23).
describe("bulkItemErrorText", () => {
  it("says the worker's known refusals in the viewer's language", () => {
    expect(bulkItemErrorText("only while status is active (it is suspended)")).toBe(
      "Skipped: the line was suspended, and this applies only while it is active.",
    );
    expect(bulkItemErrorText("no such line")).toBe("Skipped: this line no longer exists.");
    setLocale("es");
    expect(bulkItemErrorText("only while status is active (it is suspended)")).toBe(
      "Omitida: la línea estaba suspendida, y esto solo se aplica cuando está activa.",
    );
  });

  it("names an import row's columns by their labels and keeps anything else as stored", () => {
    expect(bulkItemErrorText("msisdn: already a line of this operator; planId: no such plan")).toBe(
      "Phone number: already a line of this operator; Plan: no such plan",
    );
    expect(bulkItemErrorText("gateway timeout")).toBe("gateway timeout");
    expect(bulkItemErrorText(null)).toBe("");
  });
});
