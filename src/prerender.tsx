import { renderToString } from "react-dom/server";
import { SignInPage } from "./pages/SignInPage";

/**
 * Built with Vite's SSR build by scripts/build.ts: the sign-in form as HTML, written into
 * index.html so a phone shows it before any JavaScript has run. main.tsx hydrates it.
 */
export function renderSignInPage(): string {
  // The same props main.tsx hydrates with (their values do not matter, their presence does).
  const noop = () => Promise.resolve({ success: false });
  return renderToString(<SignInPage signIn={noop} signInWithGoogle={noop} />);
}

export { renderPortalStyles } from "./portalStyles";
