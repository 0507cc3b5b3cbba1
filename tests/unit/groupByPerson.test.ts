import { describe, expect, it } from "vitest";
import { groupByPerson } from "../../src/pages/care/groupByPerson";
import type { Subscriber } from "../../src/resources/subscribers";

const account = (id: string, personId: string, name: string): Subscriber => ({
  id,
  personId,
  name,
  email: null,
  phone: null,
  verifiedUntil: null,
  type: "prepaid",
  status: "active",
  lineCount: 1,
  lines: [],
  relevance: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

describe("search results per person", () => {
  it("keeps one row per person at the place of their best-ranked account, with all their accounts in rank order", () => {
    const rows = [
      account("a1", "alex", "Alex Rivera"),
      account("s1", "sam", "Sam Chen"),
      account("a2", "alex", "Alex Rivera"),
      account("u1", "u1", "Riley Smith"),
      account("u2", "u2", "Riley Smith"),
    ];
    const people = groupByPerson(rows);
    expect(people.map((p) => [p.personId, p.first.id, p.accounts.map((a) => a.id)])).toEqual([
      ["alex", "a1", ["a1", "a2"]],
      ["sam", "s1", ["s1"]],
      // Two unheld accounts with the same name are two people: nothing says they are one.
      ["u1", "u1", ["u1"]],
      ["u2", "u2", ["u2"]],
    ]);
    expect(groupByPerson([])).toEqual([]);
  });
});
