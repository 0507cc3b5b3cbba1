import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { resources } from "../../src/resources";
import { idSchema, isoDate, isoDateTime } from "../../src/resources/common";
import { defineResource } from "../../src/resources/define";
import { rowsOf } from "../../server/db/rowsOf";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX, TMO_ADMIN } from "../support/fixtures";

// Issue 30 item 3: deep pages by keyset. A list asked with `cursor` (empty for the first page)
// answers `next`, the place its last row holds; the next page starts after it, whatever its depth,
// in the same order as page numbers give, with no row twice or missed (ties, microseconds, nulls).
let backend: TestBackend;

/** A subscriber's reminders with a day that may be left empty: a sortable field that holds nulls. */
const reminders = defineResource({
  name: "keyset-reminders",
  label: "resources.keyset-reminders.label",
  icon: "BellOutlined",
  schema: z.object({
    id: idSchema,
    note: z.string().max(100),
    dueOn: isoDate.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
  recordTitle: "note",
  fields: {
    note: { label: "fields.note", kind: "text" },
    dueOn: { label: "fields.dueOn", kind: "date" },
  },
  list: {
    columns: ["note", "dueOn"],
    defaultSort: [{ field: "dueOn", order: "asc" }],
    sortable: ["dueOn", "createdAt"],
    filters: {},
  },
  show: ["note", "dueOn"],
  form: { create: ["note", "dueOn"], edit: ["note", "dueOn"] },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
  },
  source: "backend",
  store: "documents",
  audit: false,
});

type Listed = { data: { id: string }[]; total: number; next?: string };

async function listOf(path: string, as = ADMIN, operator?: string): Promise<Listed> {
  const res = await backend.get(path, { as, ...(operator ? { operator } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Listed>();
}

/** Every page of a list by cursor, `pageSize` at a time: the ids in order, and how many pages it took. */
async function walk(path: string, pageSize: number, as = ADMIN, operator?: string) {
  const ids: string[] = [];
  let cursor = "";
  let pages = 0;
  for (;;) {
    const page = await listOf(`${path}&pageSize=${pageSize}&cursor=${encodeURIComponent(cursor)}`, as, operator);
    pages += 1;
    ids.push(...page.data.map((row) => row.id));
    if (!page.next) return { ids, pages };
    expect(page.data).toHaveLength(pageSize);
    cursor = page.next;
  }
}

/** The same list in one page by number: the order keyset pages must give. */
const allAtOnce = async (path: string, as = ADMIN, operator?: string) =>
  (await listOf(`${path}&pageSize=100`, as, operator)).data.map((row) => row.id);

beforeAll(async () => {
  backend = await startTestBackend({ resources: [...resources, reminders] });
  const { db } = backend.database;
  // 90 audit events: 60 made in one statement share one created_at (the id must break the tie), and
  // 30 a microsecond apart within one millisecond (a JavaScript Date could not tell them apart).
  await db.execute(sql`
    insert into audit_events (operator_code, actor_uid, actor_role, action, target_type, target_id, created_at)
    select 'ATT', 'keyset', 'admin', 'lines.edit', 'keyset-ties', n::text, '2026-11-20T10:00:00Z'
    from generate_series(1, 60) n`);
  await db.execute(sql`
    insert into audit_events (operator_code, actor_uid, actor_role, action, target_type, target_id, created_at)
    select 'ATT', 'keyset', 'admin', 'lines.edit', 'keyset-ties', n::text, '2026-11-20T10:00:01Z'::timestamptz + n * interval '1 microsecond'
    from generate_series(1, 30) n`);
  await db.execute(sql`
    insert into audit_events (operator_code, actor_uid, actor_role, action, target_type, target_id)
    select 'TMO', 'keyset', 'admin', 'lines.edit', 'keyset-ties', n::text from generate_series(1, 7) n`);
  // 30 reminders: 24 of alex's, a third without a day (nulls sort last going up, first going
  // down), 6 of another subscriber's.
  const [alex] = rowsOf<{ uid: string }>(
    await db.execute(sql`select owner_uid as uid from accounts where email = ${ALEX} limit 1`),
  );
  await db.execute(sql`
    insert into resource_documents (operator_code, resource, owner_uid, data)
    select 'ATT', 'keyset-reminders', case when n <= 24 then ${alex!.uid} else 'someone-else' end,
      jsonb_build_object('note', 'Reminder ' || n,
        'dueOn', case when n % 3 = 0 then null else to_char(date '2026-11-01' + (n % 5), 'YYYY-MM-DD') end)
    from generate_series(1, 30) n`);
}, 120_000);
afterAll(() => backend?.close());

describe("keyset pages", () => {
  it("go through ties on the sort field and microsecond apart times in the order page numbers give, no row twice", async () => {
    const path = "/api/v1/audit-events?filter[targetType]=keyset-ties&sort=-createdAt";
    const expected = await allAtOnce(path);
    expect(expected).toHaveLength(90);
    for (const size of [1, 7, 30]) {
      const { ids, pages } = await walk(path, size);
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.ceil(90 / size));
    }
    const up = await walk("/api/v1/audit-events?filter[targetType]=keyset-ties&sort=createdAt", 13);
    expect(up.ids).toEqual(await allAtOnce("/api/v1/audit-events?filter[targetType]=keyset-ties&sort=createdAt"));
  });

  it("place rows without a value where PostgreSQL sorts them, in both directions", async () => {
    for (const sort of ["dueOn", "-dueOn"]) {
      const path = `/api/v1/keyset-reminders?sort=${sort}`;
      const expected = await allAtOnce(path);
      expect(expected).toHaveLength(30);
      expect((await walk(path, 4)).ids).toEqual(expected);
    }
  });

  it("keep to the caller's own rows: a subscriber's pages hold only theirs, even from a cursor made for staff", async () => {
    const staffFirst = await listOf("/api/v1/keyset-reminders?sort=createdAt&pageSize=2&cursor=");
    const mine = await walk("/api/v1/keyset-reminders?sort=createdAt", 5, ALEX);
    expect(mine.ids).toHaveLength(24);
    expect(mine.ids).toEqual(await allAtOnce("/api/v1/keyset-reminders?sort=createdAt", ALEX));
    const fromStaff = await listOf(
      `/api/v1/keyset-reminders?sort=createdAt&pageSize=100&cursor=${encodeURIComponent(staffFirst.next!)}`,
      ALEX,
    );
    expect(fromStaff.data.every((row) => mine.ids.includes(row.id))).toBe(true);
  });

  it("keep to the operator: another operator's admin walks only their own events", async () => {
    const theirs = await walk(
      "/api/v1/audit-events?filter[targetType]=keyset-ties&sort=-createdAt",
      3,
      TMO_ADMIN,
      "TMO",
    );
    expect(theirs.ids).toHaveLength(7);
  });

  it("the last page has no next, and a list without cursor answers none", async () => {
    const path = "/api/v1/audit-events?filter[targetType]=keyset-ties&sort=-createdAt";
    expect((await listOf(`${path}&pageSize=90&cursor=`)).next).toBeUndefined();
    expect((await listOf(`${path}&pageSize=10`)).next).toBeUndefined();
    expect((await listOf(`${path}&pageSize=10&cursor=`)).next).toEqual(expect.any(String));
  });
});

describe("a cursor that is not a place in the list", () => {
  const refused = async (query: string) => {
    const res = await backend.get(`/api/v1/audit-events?${query}`, { as: ADMIN });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ errors: { path: string; message: string }[] }>();
    expect(body.errors.map((e) => e.path)).toEqual(["cursor"]);
    return body.errors[0]!.message;
  };
  const cursorOf = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

  it("is refused at the cursor parameter: garbage, another sort's, a value the column cannot hold", async () => {
    expect(await refused("cursor=not-a-cursor")).toMatch(/not a place in this list/);
    const first = await listOf("/api/v1/audit-events?sort=-createdAt&pageSize=2&cursor=");
    expect(await refused(`sort=action&cursor=${first.next}`)).toMatch(/another order/);
    expect(
      await refused(`sort=-createdAt&cursor=${cursorOf({ s: "-createdAt", v: ["not a time"], i: first.data[1]!.id })}`),
    ).toMatch(/not a place in this list/);
    expect(await refused(`sort=-createdAt&cursor=${cursorOf({ s: "-createdAt", v: [], i: "x" })}`)).toMatch(
      /not a place/,
    );
  });

  it("is refused for a sort keyset pages cannot follow (care search's relevance)", async () => {
    const res = await backend.get("/api/v1/subscribers?q=alex&sort=-relevance&cursor=", { as: ADMIN });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual(["cursor"]);
  });

  it("without a sign-in the list is refused before any cursor is read", async () => {
    const res = await backend.get("/api/v1/audit-events?cursor=");
    expect(res.statusCode).toBe(401);
  });
});
