import { describe, expect, it } from "vitest";
import { accessScope, can, isRole } from "../../src/resources/access";
import { ROLES } from "../../src/resources/define";
import { linesResource } from "../../src/resources/lines";
import { plansResource } from "../../src/resources/plans";

const as = (role: string) => ({ role }) as { role: (typeof ROLES)[number] };

describe("isRole", () => {
  it.each(ROLES)("accepts %s", (role) => {
    expect(isRole(role)).toBe(true);
  });

  it.each([null, undefined, "", "Admin", "superuser", "owner", 1, {}, ["admin"]])("rejects %j", (value) => {
    expect(isRole(value)).toBe(false);
  });
});

describe("accessScope and can", () => {
  // The declarations' intent, spelled out: a subscriber reaches its own lines, an agent the lines of
  // callers verified to them (issue 27), an admin every line of the operator; the plan catalog is
  // open to every role.
  const expected = {
    lines: { subscriber: "own", agent: "verified", admin: "all" },
    plans: { subscriber: "all", agent: "all", admin: "all" },
  } as const;
  const resources = { lines: linesResource, plans: plansResource } as const;

  for (const name of ["lines", "plans"] as const) {
    for (const action of ["list", "show"] as const) {
      for (const role of ROLES) {
        it(`${role} may ${action} ${name} with scope ${expected[name][role]}`, () => {
          expect(accessScope(as(role), resources[name], action)).toBe(expected[name][role]);
          expect(can(as(role), resources[name], action)).toBe(true);
        });
      }
    }

    const undeclared = name === "plans" ? ["delete", "teleport", ""] : ["delete", "create", "edit", "teleport", ""];
    it.each(undeclared)(`no role may %j ${name} (not declared)`, (action) => {
      for (const role of ROLES) {
        expect(accessScope(as(role), resources[name], action)).toBeNull();
        expect(can(as(role), resources[name], action)).toBe(false);
      }
    });

    it(`a missing or unknown role gets nothing on ${name}`, () => {
      for (const principal of [null, undefined, { role: null }, { role: "superuser" }, { role: "" }, {}]) {
        for (const action of ["list", "show", "delete"]) {
          expect(accessScope(principal as never, resources[name], action)).toBeNull();
          expect(can(principal as never, resources[name], action)).toBe(false);
        }
      }
    });
  }

  // Catalog management (issue 12): only admins write plans, move them through their lifecycle and change their price.
  it.each(["create", "edit", "activate", "retire", "change-price"])("only admins may %s plans", (action) => {
    expect(accessScope(as("admin"), plansResource, action)).toBe("all");
    expect(accessScope(as("agent"), plansResource, action)).toBeNull();
    expect(accessScope(as("subscriber"), plansResource, action)).toBeNull();
  });

  it("a role missing from one action's entry is refused for that action only", () => {
    const resource = {
      access: { list: { admin: "all" as const }, show: { subscriber: "own" as const, admin: "all" as const } },
    };
    expect(accessScope(as("agent"), resource, "list")).toBeNull();
    expect(accessScope(as("admin"), resource, "list")).toBe("all");
    expect(accessScope(as("subscriber"), resource, "list")).toBeNull();
    expect(accessScope(as("subscriber"), resource, "show")).toBe("own");
    expect(can(as("agent"), resource, "show")).toBe(false);
  });

  it("inherited object properties are not actions", () => {
    for (const action of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      expect(accessScope(as("admin"), linesResource, action)).toBeNull();
      expect(can(as("admin"), plansResource, action)).toBe(false);
    }
  });
});
