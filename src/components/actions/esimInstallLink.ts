/**
 * A link that installs an eSIM on the phone the page is open on, from its activation code
 * (`LPA:1$<SM-DP+ address>$<matching id>`), where the phone's system supports one: iOS 17.4+ opens
 * Apple's eSIM setup from `esimsetup.apple.com`, Android 15+ Google's from `esimsetup.android.com`.
 * Elsewhere (a computer, another phone's browser) there is none: the QR code is scanned instead.
 */
export function esimInstallLink(activationCode: string, userAgent: string): string | null {
  if (!activationCode.startsWith("LPA:")) return null;
  const carddata = encodeURIComponent(activationCode);
  if (/\b(iPhone|iPad)\b/.test(userAgent))
    return `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${carddata}`;
  if (/\bAndroid\b/.test(userAgent))
    return `https://esimsetup.android.com/esim_qrcode_provisioning?carddata=${carddata}`;
  return null;
}
