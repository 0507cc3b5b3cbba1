/**
 * Query parameters whose values are ours, never typed by a person: paging, the sort's field names,
 * the live channel's resource names, an upload's purpose. Every other value (`q`, `filter[…]`, an
 * upload's `name`, the live channel's `token`) is what someone typed or holds a secret, so the log
 * keeps its name and drops its value: the route and the request's shape, never its content.
 */
const KEPT = new Set(["page", "pageSize", "sort", "resources", "purpose", "operator"]);

/** What a kept value looks like (numbers, field and resource names); anything else is dropped all the same. */
const KEPT_VALUE = /^[-\w,.]{0,200}$/;

/** Ids (UUIDs, one or a list) and true/false are nobody's typed text, whatever the parameter: `filter[accountId]=…` stays readable. */
const ID_VALUE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:(?:,|%2C)|$))+$|^(?:true|false)$/i;

/** A parameter name as our routes spell them (`q`, `filter[msisdn][contains]`); anything else may be typed text. */
const NAME = /^[A-Za-z][\w.[\]]{0,63}$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/** A run of 7 digits anywhere: without one, a path has nothing to replace. */
const SEVEN_DIGITS = /\d{7}/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path with every run of 7 or more digits outside a UUID replaced by `~`: our ids are UUIDs, but a
 * carrier's own record ids (usage records) may embed the phone number they belong to.
 */
const pathOf = (path: string) =>
  path
    .split("/")
    .map((segment) => (UUID.test(segment) ? segment : segment.replace(/\d{7,}/g, "~")))
    .join("/");

/**
 * A request URL as the log may hold it: the path without long digit runs (phone numbers), each query
 * value but ids and KEPT ones replaced by `~`, an odd name too.
 */
export function loggedUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const mark = url.indexOf("?");
  // Most paths (ids are UUIDs of hex, rarely 7 digits in a row) skip the split.
  if (mark < 0) return SEVEN_DIGITS.test(url) ? pathOf(url) : url;
  const query = url
    .slice(mark + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      const name = decoded(rawName);
      if (!NAME.test(name)) return pair === "" ? "" : "~";
      if (equals < 0) return rawName;
      const value = pair.slice(equals + 1);
      return (KEPT.has(name) && KEPT_VALUE.test(decoded(value))) || ID_VALUE.test(value) ? pair : `${rawName}=~`;
    })
    .join("&");
  return `${pathOf(url.slice(0, mark))}?${query}`;
}
