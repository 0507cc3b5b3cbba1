import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { deviceClaimsResource } from "../../src/resources/deviceClaims";
import type { ComponentProps } from "react";
import { genericViews, ViewRoute, viewOf } from "../../src/pages/resourceRoutes";
import { hasPage, type ResourceViews, type ViewComponent } from "../../src/pages/resourceViews";

// The portal may replace one view of a resource with its own page, loaded on demand; the others stay generic.
const withCustomShow: ResourceViews = {
  "device-claims": {
    show: () =>
      Promise.resolve({
        default: ({ resource }: ComponentProps<ViewComponent>) => <p>custom page of {resource.name}</p>,
      }),
  },
};

describe("view overrides", () => {
  it("renders the resource's own page for the view it replaces", async () => {
    render(<ViewRoute resource={deviceClaimsResource} view="show" views={withCustomShow} />);
    expect(await screen.findByText("custom page of device-claims")).toBeTruthy();
  });

  it("keeps the generic pages for every other view, and for resources without their own pages", () => {
    // The generic pages load with their route (lazy): the same component for every declaration.
    expect(viewOf(deviceClaimsResource, "list", withCustomShow)).toBe(genericViews.list);
    expect(viewOf(deviceClaimsResource, "show", {})).toBe(genericViews.show);
    const custom = viewOf(deviceClaimsResource, "show", withCustomShow);
    expect(custom).not.toBe(genericViews.show);
    expect(viewOf(deviceClaimsResource, "show", withCustomShow)).toBe(custom); // one lazy component, not one per render
  });

  it("offers a create page for a resource whose own page replaces the form (voucher batches)", () => {
    expect(hasPage({ ...deviceClaimsResource, name: "voucher-batches", form: undefined }, "create")).toBe(true);
    expect(hasPage({ ...deviceClaimsResource, form: undefined }, "create")).toBe(false);
  });
});
