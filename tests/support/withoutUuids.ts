const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A value as text (JSON unless it is a string) with its UUIDs blanked, to assert that a short secret
 * (a 4-digit PIN, a 6-digit code) is not in it: a random UUID holds a given 4 digits about once in
 * 2,300 (a request id "…-dc6940e25807" failed a PIN check of "2580" once).
 */
export function withoutUuids(value: unknown): string {
  return (typeof value === "string" ? value : JSON.stringify(value)).replace(UUID, "<uuid>");
}
