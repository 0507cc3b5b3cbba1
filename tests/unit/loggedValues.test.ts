import { describe, expect, it } from "vitest";
import { loggedError } from "../../server/lib/loggedError";
import { loggedUrl } from "../../server/lib/loggedUrl";

/** An error as node-postgres and PGlite raise it (their fields, on an Error). */
function postgresError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { severity: "ERROR", ...fields });
}

describe("loggedUrl", () => {
  it("keeps the path and the parameters' names, and the values of paging, sort, live resources and upload purpose only", () => {
    expect(loggedUrl("/api/v1/subscribers?q=alex%40example.com&page=2&pageSize=20&sort=-createdAt,name")).toBe(
      "/api/v1/subscribers?q=~&page=2&pageSize=20&sort=-createdAt,name",
    );
    expect(loggedUrl("/api/v1/files?name=Sam%20Chen%20ID.pdf&purpose=id_document")).toBe(
      "/api/v1/files?name=~&purpose=id_document",
    );
    expect(loggedUrl("/api/v1/live?resources=lines,accounts&token=eyJhbGciOi")).toBe(
      "/api/v1/live?resources=lines,accounts&token=~",
    );
    expect(loggedUrl("/api/v1/live?resources=accounts%2Caudit-events&token=eyJ&operator=ATT")).toBe(
      "/api/v1/live?resources=accounts%2Caudit-events&token=~&operator=ATT",
    );
    expect(loggedUrl("/api/v1/lines?filter%5Bmsisdn%5D%5Bcontains%5D=%2B12025550101")).toBe(
      "/api/v1/lines?filter%5Bmsisdn%5D%5Bcontains%5D=~",
    );
  });
  it("masks a phone number inside a path segment (a carrier's record id), never a UUID", () => {
    expect(loggedUrl("/api/v1/usage-records/seed-12025550101-2026-11-28-data-4")).toBe(
      "/api/v1/usage-records/seed-~-2026-11-28-data-4",
    );
    expect(loggedUrl("/api/v1/usage-records/cdr%2B12025550101?page=2")).toBe("/api/v1/usage-records/cdr%2B~?page=2");
    const digitsOnlyTail = "af391c06-eba9-4575-a29e-123456789012";
    expect(loggedUrl(`/api/v1/lines/${digitsOnlyTail}`)).toBe(`/api/v1/lines/${digitsOnlyTail}`);
  });

  it("keeps ids and true/false in any parameter: they are nobody's typed text", () => {
    const id = "af391c06-eba9-4575-a29e-5229b5f38bbf";
    expect(loggedUrl(`/api/v1/invoices?filter%5BaccountId%5D=${id}&filter%5Bread%5D=false&filter%5Bname%5D=Sam`)).toBe(
      `/api/v1/invoices?filter%5BaccountId%5D=${id}&filter%5Bread%5D=false&filter%5Bname%5D=~`,
    );
    expect(loggedUrl(`/api/v1/usage-records?filter%5BlineId%5D%5Bin%5D=${id}%2C${id}`)).toBe(
      `/api/v1/usage-records?filter%5BlineId%5D%5Bin%5D=${id}%2C${id}`,
    );
  });
  it("drops a kept parameter's value that is not shaped like one, and a name that is not a parameter's", () => {
    expect(loggedUrl("/api/v1/lines?page=alex%40example.com")).toBe("/api/v1/lines?page=~");
    expect(loggedUrl("/care?alex%40example.com&q")).toBe("/care?~&q");
    expect(loggedUrl("/api/v1/lines")).toBe("/api/v1/lines");
    expect(loggedUrl(undefined)).toBeUndefined();
  });
});

describe("loggedError", () => {
  it("keeps a failed query's SQL, not its parameters, and its PostgreSQL cause's names, not its detail", () => {
    const cause = postgresError('new row for relation "tickets" violates check constraint "subject_check"', {
      code: "23514",
      constraint: "subject_check",
      table: "tickets",
      detail: "Failing row contains (Call me at alex@example.com).",
      where: "SQL statement",
      params: ["alex@example.com"],
    });
    const failed = Object.assign(
      new Error('Failed query: insert into "tickets" ("subject") values ($1)\nparams: alex@example.com'),
      { query: 'insert into "tickets" ("subject") values ($1)', params: ["alex@example.com"], cause },
    );
    const logged = loggedError(failed);
    expect(logged.message).toBe('Failed query: insert into "tickets" ("subject") values ($1)');
    expect(logged.stack.split("\n")[0]).toBe('Error: Failed query: insert into "tickets" ("subject") values ($1)');
    expect(logged.cause).toMatchObject({
      code: "23514",
      constraint: "subject_check",
      table: "tickets",
      message: 'new row for relation "tickets" violates check constraint "subject_check"',
    });
    expect(JSON.stringify(logged)).not.toContain("alex@example.com");
  });
  it("drops the value a data exception quotes or names after a colon", () => {
    expect(
      loggedError(postgresError('invalid input syntax for type uuid: "alex@example.com"', { code: "22P02" })).message,
    ).toBe('invalid input syntax for type uuid: "…"');
    expect(
      loggedError(postgresError('value "12025550101" is out of range for type integer', { code: "22003" })).message,
    ).toBe('value "…" is out of range for type integer');
    expect(
      loggedError(postgresError('invalid byte sequence for encoding "UTF8": 0x00 Sam', { code: "22021" })).message,
    ).toBe('invalid byte sequence for encoding "…": …');
  });
  it("keeps other errors' message and code, and nothing but picked fields", () => {
    const logged = loggedError(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
        code: "ECONNREFUSED",
        body: { email: "sam@example.com" },
      }),
    );
    expect(logged).toMatchObject({
      type: "Error",
      message: "connect ECONNREFUSED 127.0.0.1:5432",
      code: "ECONNREFUSED",
    });
    expect(JSON.stringify(logged)).not.toContain("sam@example.com");
    expect(loggedError("alex@example.com").message).not.toContain("alex");
  });
});
