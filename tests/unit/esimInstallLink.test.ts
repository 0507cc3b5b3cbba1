import { describe, expect, it } from "vitest";
import { esimInstallLink } from "../../src/components/actions/esimInstallLink";

// The eSIM result's "Install on this phone": the system's own setup link, carrying the activation code, only where one exists.
const CODE = "LPA:1$smdp.att.example$0A1B2C3D";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const PIXEL =
  "Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

describe("the eSIM install link", () => {
  it("opens Apple's eSIM setup on an iPhone and Google's on Android, with the whole code encoded", () => {
    expect(esimInstallLink(CODE, IPHONE)).toBe(
      "https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp.att.example%240A1B2C3D",
    );
    expect(esimInstallLink(CODE, PIXEL)).toBe(
      "https://esimsetup.android.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp.att.example%240A1B2C3D",
    );
  });

  it("is not offered on a computer, nor for something that is not an activation code", () => {
    expect(esimInstallLink(CODE, DESKTOP)).toBeNull();
    expect(esimInstallLink("8901260000000000001", IPHONE)).toBeNull();
  });
});
