import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { deviceClaimsResource } from "../../src/resources/deviceClaims";
import type { ResourceDefinition } from "../../src/resources/define";
import { genericViews, ViewRoute, viewOf } from "../../src/pages/resourceRoutes";

// A declaration may replace one view with its own page, loaded on demand; the others stay generic.
const withCustomShow: ResourceDefinition<any, any> = {
  ...deviceClaimsResource,
  views: {
    show: () =>
      Promise.resolve({
        default: ({ resource }: { resource: ResourceDefinition<any, any> }) => <p>custom page of {resource.name}</p>,
      }),
  },
};

describe("view overrides", () => {
  it("renders the declaration's own page for the view it replaces", async () => {
    render(<ViewRoute resource={withCustomShow} view="show" />);
    expect(await screen.findByText("custom page of device-claims")).toBeTruthy();
  });

  it("keeps the generic pages for every other view, and for declarations without overrides", () => {
    // The generic pages load with their route (lazy): the same component for every declaration.
    expect(viewOf(withCustomShow, "list")).toBe(genericViews.list);
    expect(viewOf(deviceClaimsResource, "show")).toBe(genericViews.show);
    expect(viewOf(withCustomShow, "show")).not.toBe(genericViews.show);
    expect(viewOf(withCustomShow, "show")).toBe(viewOf(withCustomShow, "show")); // one lazy component, not one per render
  });
});
