import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../../server/db/rowsOf";
import { runBillingDay, type BillingRunResult } from "../../server/domain/billingRuns/run";
import { BILLING_DAY_PARTS, billingJobs } from "../../server/domain/money/billingJobs";
import type { EngineServices } from "../../server/engine/services";
import { startJobQueue, type JobQueue } from "../../server/jobs/jobQueue";
import { startTestBackend, type TestBackend } from "../support/testBackend";

// Issue 30, item 1: the daily job works on pages of accounts, each page one transaction. A run that
// stops part way (here a page made to fail, as a crash would leave it) is resumed by the next run,
// which finds only the accounts still due: every prepaid line renewed or in grace once, every
// postpaid account billed once, no money moved twice. Two runs at once share the accounts the same
// way (each page's rows are locked). On PGlite and PostgreSQL.
let backend: TestBackend;
let queue: JobQueue | undefined;
const db = () => backend.database.db;
const query = async <T>(text: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(text));

const FUNDS = 100_000;
/** Pages of two accounts, so a handful of accounts spans several pages. */
const PAGE = 2;
const quiet = { error: () => undefined, warn: () => undefined };

/** The first day of the month `months` from now: every line made here has its cycle day on the 1st. */
const firstOfMonth = (months: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
};

type Made = { accountId: string; lineId: string; funded: boolean };

/** `n` accounts of a type, one line each on the operator's first plan of that kind, due on the 1st. */
async function makeAccounts(tag: string, type: "prepaid" | "postpaid", n: number, from: number): Promise<Made[]> {
  const made: Made[] = [];
  for (let i = 0; i < n; i++) {
    const k = from + i;
    const [account] = await query<{ id: string }>(sql`
      insert into accounts (operator_code, name, email, type, status)
      values ('ATT', ${`Pages ${tag} ${i}`}, ${`pages.${tag}.${i}@example.test`}, ${type}, 'active') returning id`);
    const [line] = await query<{ id: string }>(sql`
      insert into lines (operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, cycle_day, created_at)
      select 'ATT', ${account!.id}, ${`+1202555${String(9000 + k)}`}, ${`89019000000000${String(90000 + k)}`}, 'physical', id, 'active', 1,
        ${firstOfMonth(0)}::timestamptz - interval '20 days'
      from plans where operator_code = 'ATT' and kind = ${type} and status = 'active' and price_amount > 0 order by code limit 1
      returning id`);
    const funded = type === "prepaid" && i % 2 === 0;
    if (funded)
      await db()
        .execute(sql`insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_role)
        values ('ATT', ${account!.id}, 'top_up', ${FUNDS}, 'USD', 'test top-up', 'admin')`);
    made.push({ accountId: account!.id, lineId: line!.id, funded });
  }
  return made.sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
}

/** A trigger that fails every write `when` matches, as a crash in the middle of a page would. */
async function failWrites(name: string, table: string, when: string) {
  await db().execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin raise exception '${name}'; end $$`),
  );
  await db().execute(
    sql.raw(
      `create trigger ${name} before insert or update on ${table} for each row when (${when}) execute function ${name}()`,
    ),
  );
}
async function stopFailing(name: string, table: string) {
  await db().execute(sql.raw(`drop trigger ${name} on ${table}`));
  await db().execute(sql.raw(`drop function ${name}()`));
}

/** What the day did to these accounts, from the tables: each thing should be there once. */
async function outcome(made: Made[], asOf: string) {
  const ids = made.map((m) => m.accountId);
  const lineIds = made.map((m) => m.lineId);
  const lines = await query<{ id: string; status: string; renewed: string | null }>(
    sql`select id, status, renewed_cycle_start::text as renewed from lines where id = any(${sql.param(lineIds)}::uuid[])`,
  );
  const renewals = await query<{ account_id: string; n: number }>(sql`
    select account_id, count(*)::int as n from ledger_entries where kind = 'renewal' and account_id = any(${sql.param(ids)}::uuid[]) group by account_id`);
  const graces = await query<{ target_id: string; n: number }>(sql`
    select target_id, count(*)::int as n from audit_events where action = 'lines.grace' and target_id = any(${sql.param(lineIds)}::text[]) group by target_id`);
  const balances = await query<{ id: string; balance: number }>(
    sql`select id, balance_amount as balance from accounts where id = any(${sql.param(ids)}::uuid[])`,
  );
  const bills = await query<{ account_id: string; n: number; charges: number }>(sql`
    select i.account_id, count(distinct i.id)::int as n, count(c.ledger_entry_id)::int as charges
    from invoices i left join invoice_charges c on c.invoice_id = i.id
    where i.account_id = any(${sql.param(ids)}::uuid[]) group by i.account_id`);
  const fees = await query<{ account_id: string; n: number }>(sql`
    select account_id, count(*)::int as n from ledger_entries where kind = 'charge' and idempotency_key like 'plan-fee:%'
      and account_id = any(${sql.param(ids)}::uuid[]) group by account_id`);
  const count = <R extends { n: number }>(rows: R[], key: (r: R) => string, id: string) =>
    rows.find((r) => key(r) === id)?.n ?? 0;
  return made.map((m) => ({
    funded: m.funded,
    status: lines.find((l) => l.id === m.lineId)!.status,
    renewedFor: lines.find((l) => l.id === m.lineId)!.renewed === asOf,
    renewals: count(renewals, (r) => r.account_id, m.accountId),
    graces: count(graces, (r) => r.target_id, m.lineId),
    balance: Number(balances.find((b) => b.id === m.accountId)!.balance),
    bills: count(bills, (r) => r.account_id, m.accountId),
    billedCharges: bills.find((b) => b.account_id === m.accountId)?.charges ?? 0,
    planFees: count(fees, (r) => r.account_id, m.accountId),
  }));
}

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  await queue?.stop();
  await backend?.close();
});

describe("the daily job by pages of accounts", () => {
  it("resumes after a run that stopped part way: every account done once, no money moved twice", async () => {
    const asOf = firstOfMonth(1);
    const prepaid = await makeAccounts("crash-pre", "prepaid", 7, 0);
    const postpaid = await makeAccounts("crash-post", "postpaid", 5, 10);
    const [price] = await query<{ price: number }>(
      sql`select p.price_amount as price from lines l join plans p on p.id = l.plan_id where l.id = ${prepaid[0]!.lineId}`,
    );
    const run = () => runBillingDay({ db: db() }, { operatorCode: "ATT", asOf, log: quiet, accountsPerPage: PAGE });

    // The third prepaid account's page fails (its line cannot be written), and so does the third
    // postpaid account's (its bill cannot be stored).
    await failWrites("pages_fail_line", "lines", `new.id = '${prepaid[2]!.lineId}'`);
    await failWrites("pages_fail_bill", "invoices", `new.account_id = '${postpaid[2]!.accountId}'`);
    await expect(run()).rejects.toThrow();
    const stopped = await outcome(prepaid, asOf);
    expect(stopped[2]).toMatchObject({ status: "active", renewals: 0, graces: 0 });
    // The pages before its page were committed (the rest may or may not have been, as in a crash);
    // the first account is before it (its page holds one account more at most).
    expect(stopped[0]!.renewals + stopped[0]!.graces).toBe(1);

    await stopFailing("pages_fail_line", "lines");
    await expect(run()).rejects.toThrow();
    expect((await outcome(postpaid, asOf))[2]).toMatchObject({ bills: 0 });

    await stopFailing("pages_fail_bill", "invoices");
    const last = await run();
    expect(last.billsIssued).toBeGreaterThanOrEqual(1);

    for (const o of await outcome(prepaid, asOf)) {
      if (o.funded)
        expect(o).toMatchObject({
          status: "active",
          renewedFor: true,
          renewals: 1,
          graces: 0,
          balance: FUNDS - price!.price,
        });
      else expect(o).toMatchObject({ status: "grace", renewals: 0, graces: 1, balance: 0 });
    }
    for (const o of await outcome(postpaid, asOf)) expect(o).toMatchObject({ bills: 1, planFees: 1, billedCharges: 1 });
    // The same day again finds nothing to do.
    expect(await run()).toEqual({ renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 });
  });

  it("two runs of the same day at once do each account once between them", async () => {
    const asOf = firstOfMonth(2);
    const prepaid = await makeAccounts("twice-pre", "prepaid", 6, 20);
    const postpaid = await makeAccounts("twice-post", "postpaid", 4, 30);
    const run = () => runBillingDay({ db: db() }, { operatorCode: "ATT", asOf, log: quiet, accountsPerPage: PAGE });
    const [a, b] = await Promise.all([run(), run()]);
    // Every line of the operator due that day, these and the earlier test's, renewed or in grace once between the two.
    for (const o of await outcome(prepaid, asOf)) expect(o.renewals + o.graces).toBe(1);
    for (const o of await outcome(postpaid, asOf)) expect(o).toMatchObject({ bills: 1, planFees: 1 });
    const again = await run();
    expect(again).toEqual({ renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 });
    expect(a.billsIssued + b.billsIssued).toBeGreaterThanOrEqual(postpaid.length);
  });

  it("shares the day out through the job queue: a job per slice of accounts, together every account once", async () => {
    const asOf = firstOfMonth(3);
    const prepaid = await makeAccounts("queue-pre", "prepaid", 6, 40);
    const postpaid = await makeAccounts("queue-post", "postpaid", 4, 50);
    // The backend's own jobs, on a queue of this test's (the test backend runs none): the day job
    // sends its parts through it, and two workers take them.
    const services = { db: db() } as EngineServices;
    queue = await startJobQueue(backend.database, billingJobs(services), {
      log: { error: () => undefined, info: () => undefined },
      pollingIntervalSeconds: 0.5,
    });
    services.jobs = queue;
    await queue.send("billing.run-day", { asOf });

    const [{ operators }] = (await query<{ operators: number }>(
      sql`select count(*)::int as operators from operators`,
    )) as [{ operators: number }];
    type Part = { state: string; part: number; output: BillingRunResult | null };
    const parts = () =>
      query<Part>(sql`select state, (data->>'part')::int as part, output from pgboss.job
        where name = 'billing.run-day-part' and data->>'asOf' = ${asOf} and data->>'operatorCode' = 'ATT'`);
    await vi.waitFor(
      async () => {
        const [{ done }] = (await query<{ done: number }>(sql`select count(*)::int as done from pgboss.job
          where name = 'billing.run-day-part' and data->>'asOf' = ${asOf} and state = 'completed'`)) as [
          { done: number },
        ];
        expect(done).toBe(operators * BILLING_DAY_PARTS);
      },
      { timeout: 120_000, interval: 200 },
    );
    const att = await parts();
    expect(att.map((p) => p.part).sort((a, b) => a - b)).toEqual([...Array(BILLING_DAY_PARTS).keys()]);

    for (const o of await outcome(prepaid, asOf)) expect(o.renewals + o.graces).toBe(1);
    for (const o of await outcome(postpaid, asOf)) expect(o).toMatchObject({ bills: 1, planFees: 1 });
    // Each part kept what it did; together they did at least these accounts.
    const total = att.reduce((sum, p) => sum + p.output!.renewed + p.output!.enteredGrace, 0);
    expect(total).toBeGreaterThanOrEqual(prepaid.length);
    expect(att.reduce((sum, p) => sum + p.output!.billsIssued, 0)).toBeGreaterThanOrEqual(postpaid.length);
    // The day is done: run again in one go, it finds nothing.
    expect(await runBillingDay({ db: db() }, { operatorCode: "ATT", asOf, log: quiet })).toEqual({
      renewed: 0,
      enteredGrace: 0,
      suspended: 0,
      billsIssued: 0,
      overdue: 0,
    });
  });
});
