import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { OutageBanner } from "../../src/components/switches/OutageBanner";
import {
  applyFeatureFlags,
  featureFlagsSource,
  getFeatureFlags,
  startRemoteConfig,
} from "../../src/providers/remoteConfig";

describe("Remote Config in the portal", () => {
  it("renders at once with the in-code defaults; a build without a Firebase app id never fetches, so they hold", async () => {
    render(<OutageBanner />);
    expect(screen.queryByTestId("outage-banner")).toBeNull();
    await startRemoteConfig();
    expect(getFeatureFlags()).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(featureFlagsSource()).toBe("defaults");
  });

  it("shows the outage notice once Remote Config activates one, and hides it when cleared", () => {
    render(<OutageBanner />);
    act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, outage_banner: "Calls may fail in Dallas until 6 pm." }));
    expect(screen.getByTestId("outage-banner").textContent).toContain("Calls may fail in Dallas until 6 pm.");
    act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }));
    expect(screen.queryByTestId("outage-banner")).toBeNull();
  });
});
