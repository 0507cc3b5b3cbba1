import { textIn, words, type Words } from "../i18n/words";
/**
 * A small RFC 4180 parser: comma-separated fields, CRLF or LF line ends, fields in double quotes may
 * hold commas, line breaks and doubled quotes (""). Answers the records as arrays of strings; a
 * trailing line end adds no empty record. Throws on a quote left open or text after a closing quote.
 */
/** Text that is not CSV, with why in words (the record it broke at). */
export class CsvUnreadable extends Error {
  constructor(readonly reason: Words) {
    super(textIn("en", reason));
  }
}

export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let afterQuote = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = "";
    afterQuote = false;
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1; // a byte-order mark is not data
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else field += c;
    } else if (c === '"' && field === "" && !afterQuote) quoted = true;
    else if (c === ",") endField();
    else if (c === "\r" && text[i + 1] === "\n") {
      endRecord();
      i++;
    } else if (c === "\n") endRecord();
    else if (afterQuote)
      throw new CsvUnreadable(words("lib.csv.textAfterQuote", { record: String(records.length + 1) }));
    else field += c;
  }
  if (quoted) throw new CsvUnreadable(words("lib.csv.unclosedQuote", { record: String(records.length + 1) }));
  if (field !== "" || record.length || afterQuote) endRecord();
  return records;
}
