import type React from "react";
import { cloneElement, startTransition, useLayoutEffect, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { getLocale, LOCALES, setLocale, type Locale } from "./i18n";
import { BootScreen, SignInPage, type SignInPageProps, type SignInResult } from "./pages/SignInPage";
import { hadSession } from "./providers/sessionHint";
import { earlySubscriber, startEarlyHome, type EarlySubscriber } from "./providers/earlySession";
import { consentNeeded } from "./consent/consent";
import { isLightPath, LIGHT_MEDIA } from "./pages/home/lightPages";
import { JOIN_PATH, joinTokenWaits, keepJoinToken } from "./pages/public/joinToken";
import { whenIdle } from "./components/whenIdle";
import { whenPageDrawn } from "./pages/home/pageDrawn";

/**
 * Entry point. The production build prerenders the sign-in form into index.html, so a phone on a
 * mobile network sees it before any script runs; this module (React + the sign-in page only)
 * hydrates it. firebase/auth is fetched right after the first paint, and the portal (Refine + antd)
 * while the visitor types, so the dashboard is ready the moment sign-in succeeds.
 */
performance.mark("portal:entry");
const container = document.getElementById("root")!;
document.documentElement.lang = getLocale();
let root: Root | undefined;

/** index.html hides the prerendered sign-in card when another page will replace it; once we render, show ours. */
const revealRoot = () => document.documentElement.classList.remove("hide-prerender");

function render(node: ReactNode) {
  const target = (root ??= createRoot(container));
  // Commit before revealing: a scheduled first render would briefly show the prerendered sign-in
  // form on another page (and take what is typed into it).
  flushSync(() => target.render(node));
  revealRoot();
}

type Identity = {
  auth: typeof import("./providers/firebase").auth;
  authProvider: typeof import("./providers/authProvider").authProvider;
  flows: typeof import("./providers/identityFlows");
  prefetchHome: typeof import("./providers/homePrefetch").prefetchHome;
  currentSessionUser: typeof import("./providers/session").currentSessionUser;
};
let identityPromise: undefined | Promise<Identity>;
function identity(): Promise<Identity> {
  identityPromise ??= Promise.all([
    import("./providers/firebase"),
    import("./providers/authProvider"),
    import("./providers/identityFlows"),
    import("./providers/homePrefetch"),
    import("./providers/session"),
  ]).then(
    ([{ auth }, { authProvider }, flows, { prefetchHome }, { currentSessionUser }]) => ({
      auth,
      authProvider,
      flows,
      prefetchHome,
      currentSessionUser,
    }),
    (error) => {
      identityPromise = undefined; // a failed chunk load must not stick: the next attempt retries it
      throw error;
    },
  );
  return identityPromise;
}

/**
 * Calls onCommit once its subtree is on screen: each render (renderPortal) brings a new onCommit, so a
 * second page (the light app, then the portal) is told too, not only the first.
 */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(() => onCommit(), [onCommit]);
  return children;
}

/**
 * The portal (or the light app) replaces what is on screen (sign-in page or boot screen) in a
 * transition: React renders it in slices that leave the main thread free every few milliseconds (a
 * phone stays responsive and Lighthouse sees no long render task), while the old page stays until
 * the new one commits. Resolves once it has.
 */
function renderPortal(node: ReactNode): Promise<void> {
  const target = root;
  if (!target) {
    render(node); // nothing of ours on screen yet: commit at once, as render() does
    return Promise.resolve();
  }
  return new Promise((resolve) =>
    startTransition(() =>
      target.render(
        <Committed
          onCommit={() => {
            revealRoot();
            resolve();
          }}
        >
          {node}
        </Committed>,
      ),
    ),
  );
}

/** The other signed-out pages, each its own small chunk. */
const PUBLIC_PAGES: Record<string, () => Promise<React.ComponentType<{ onSignedIn: () => Promise<void> }>>> = {
  "/register": () => import("./pages/public/SignUpPage").then((m) => m.SignUpPage),
  "/forgot-password": () => import("./pages/public/ForgotPasswordPage").then((m) => m.ForgotPasswordPage),
  "/login/phone": () => import("./pages/public/PhoneSignInPage").then((m) => m.PhoneSignInPage),
  "/login/email-link": () => import("./pages/public/EmailLinkPage").then((m) => m.EmailLinkPage),
  // An account alert's "This wasn't me" link (issue 27, THIS_WASNT_ME_PATH): no sign-in, signed in or not.
  "/this-wasnt-me": () => import("./pages/public/ThisWasntMePage").then((m) => m.ThisWasntMePage),
};

/**
 * antd's CSS for the portal's frame and home, rendered by the build (portalStyles.tsx), goes into the
 * page before the portal's first render, so antd takes it instead of generating it. Without it
 * (dev server, a failed fetch) antd generates everything as usual.
 */
let portalStyles: Promise<void> | undefined;
function loadPortalStyles(): Promise<void> {
  const href = document.querySelector<HTMLMetaElement>('meta[name="portal-styles"]')?.content;
  portalStyles ??= href
    ? fetch(href)
        .then((response) => (response.ok ? response.text() : ""))
        .then((styles) => document.head.insertAdjacentHTML("afterbegin", styles))
        .catch(() => undefined)
    : Promise.resolve();
  return portalStyles;
}

const loadPortal = () => Promise.all([import("./App"), loadPortalStyles()]).then(([app]) => app);
const afterPaint = (work: () => void) => requestAnimationFrame(() => setTimeout(work, 0));

/**
 * The light app (pages/home/LightApp.tsx) may stand in for the portal: on the subscriber's
 * destinations (lightPages.ts), at phone width. It carries what a build puts on every page (consent kept in step
 * with the profile, the CRM chat's button; the banner is mounted beside it, below). Whether it does
 * also needs the person to be a subscriber, known once signed in.
 */
const lightAppMayFit = (path: string) => isLightPath(path) && window.matchMedia(LIGHT_MEDIA).matches;

/**
 * The portal's code, fetched but not run (modulepreload): the build lists its chunks in a meta tag.
 * The light app asks for it once idle, so leaving it does not wait for the network.
 */
function prefetchPortalCode() {
  const chunks =
    document.querySelector<HTMLMetaElement>('meta[name="portal-chunks"]')?.content.split(" ").filter(Boolean) ?? [];
  for (const href of chunks) {
    if (document.querySelector(`link[href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    link.crossOrigin = "";
    document.head.append(link);
  }
}

/** Whether a page's first request is `GET /home`: the home, and the Usage, Money and Shop destinations. */
const readsHomeFirst = (pathname: string) => ["/", "/usage", "/money", "/shop"].includes(pathname);

/**
 * What the portal's page at `path` needs first, started before the portal renders it: its
 * destination's chunk, as soon as the portal's own chunk is in (App.tsx), and `GET /home` when that
 * is its first request (providers/homePrefetch.ts), fetched while the portal's code loads and renders.
 * Loads the portal's code: not for the light app, which does without it.
 */
function warmPortalPage(path: string, { data = true } = {}) {
  const { pathname } = new URL(path, location.origin);
  loadPortal().then(
    ({ preloadDestinationPage }) => preloadDestinationPage(pathname),
    () => undefined,
  );
  if (data) prefetchHomeFor(pathname);
}

/** The home's data is fetched while its code loads and renders, not after (providers/homePrefetch.ts). */
function prefetchHomeFor(pathname: string) {
  if (readsHomeFirst(pathname))
    void identity().then(
      ({ prefetchHome }) => prefetchHome(),
      () => undefined,
    );
}

/** Signed in, at `path`: the light app when it fits, else the portal. */
async function showPortal(path: string) {
  if (lightAppMayFit(path)) {
    prefetchHomeFor(new URL(path, location.origin).pathname);
    const [{ LightApp }, user] = await Promise.all([
      import("./pages/home/LightApp"),
      identity().then(({ currentSessionUser }) => currentSessionUser()),
    ]);
    if (user?.role === "subscriber") return showLightApp(LightApp, user, path);
  } else warmPortalPage(path);
  await enterPortal(path);
}

/**
 * A returning subscriber whose last ID token is still valid (earlySession.ts): the light pages for
 * the person it names, with `GET /home` on its way now, while Firebase restores the session behind
 * them; a session Firebase does not find (signed out or revoked elsewhere) ends on the sign-in.
 */
async function showEarlyLightApp({ user, token }: EarlySubscriber, path: string) {
  pageFirst = true;
  if (readsHomeFirst(new URL(path, location.origin).pathname)) startEarlyHome(token);
  const { LightApp } = await import("./pages/home/LightApp");
  await showLightApp(LightApp, user, path);
  // Firebase once the page has drawn its data: its code and its round trip are not the page's.
  const { auth } = await new Promise<Identity>((resolve) => whenPageDrawn(() => resolve(identity())));
  await auth.authStateReady();
  const current = auth.currentUser;
  if (current?.uid === user.uid) return;
  if (current) return showPortal(location.pathname + location.search); // another person's session: theirs
  history.replaceState(null, "", path === "/" ? "/login" : `/login?to=${encodeURIComponent(path)}`);
  showSignIn();
}

/** The portal at `path`; `push` when the person goes there from a page of ours (Back returns to it). */
async function enterPortal(path: string, { push = false } = {}) {
  const { App } = await loadPortal();
  if (location.pathname + location.search !== path) history[push ? "pushState" : "replaceState"](null, "", path);
  await renderPortal(<App />);
}

function showLightApp(
  LightApp: typeof import("./pages/home/LightApp").LightApp,
  user: import("./providers/session").SessionUser,
  path: string,
) {
  if (location.pathname + location.search !== path) history.replaceState(null, "", path);
  let leaving = false;
  const leave = (to: string) => {
    if (leaving) return;
    leaving = true;
    warmPortalPage(to);
    enterPortal(to, { push: to !== "/" }).catch((error) => {
      leaving = false;
      console.warn("The portal did not load; the page stays.", error);
    });
  };
  const signOut = async () => {
    const { authProvider } = await identity();
    await authProvider.logout();
    history.replaceState(null, "", "/login");
    showSignIn();
  };
  const shown = renderPortal(<LightApp user={user} leave={leave} signOut={() => void signOut()} />);
  // The portal's code arrives once the page has drawn its data and the browser is idle; a touch or
  // key on the page starts running it, ahead of the click.
  whenPageDrawn(() => whenIdle(prefetchPortalCode));
  const warm = () => void loadPortal().catch(() => undefined);
  container.addEventListener("pointerdown", warm, { once: true });
  container.addEventListener("keydown", warm, { once: true });
  return shown;
}

function afterSignInPath(): string {
  // An account invitation opened before signing in or up (issue 28): accept it first.
  if (joinTokenWaits()) return JOIN_PATH;
  const to = new URLSearchParams(location.search).get("to");
  // Only same-site paths: never an open redirect.
  return to && to.startsWith("/") && !to.startsWith("//") && !to.startsWith("/login") ? to : "/";
}

/** A language picked on the prerendered form before this script ran (index.html's inline script notes it). */
function pickedLocale(): Locale | undefined {
  return LOCALES.find((locale) => locale === document.documentElement.dataset.pickedLocale);
}

/**
 * Hydrates the prerendered form, which is English, as it is: whatever was typed, checked or picked
 * in it before this script arrived stays in place. Only then does the page switch to the visitor's
 * language, and a language picked on the form wins over the saved or browser one.
 */
function hydrateSignIn(page: React.ReactElement<SignInPageProps>) {
  const language = getLocale();
  if (language !== "en") setLocale("en", { remember: false });
  const onReady = () => {
    const picked = pickedLocale();
    if (picked) setLocale(picked);
    else if (language !== getLocale()) setLocale(language, { remember: false });
  };
  root = hydrateRoot(container, cloneElement(page, { onReady }));
  revealRoot();
}

/** `initial`: the outcome of a sign-in that came back from a redirect (an error or a second step to show). */
function showSignIn(initial?: SignInResult) {
  const toPortal = () => showPortal(afterSignInPath());
  const page = (
    <SignInPage
      initial={initial}
      signIn={async (values) => {
        const { authProvider } = await identity();
        const result = await authProvider.login(values);
        if (result.success) await toPortal();
        return result;
      }}
      signInWithGoogle={async () => {
        const { flows } = await identity();
        // Popups are unreliable on phones: there, a full-page redirect.
        const result = await flows.signInWithGoogle(window.innerWidth < 768 ? "redirect" : "popup");
        if (result.ok) await toPortal();
        return result.ok
          ? { success: true }
          : { success: false, error: { name: result.field ?? "form", message: result.message }, mfa: result.mfa };
      }}
      onSignedIn={toPortal}
    />
  );
  if (!root && container.firstElementChild && !initial) hydrateSignIn(page);
  else render(page);
  // While the visitor types: the code of what follows sign-in (on a phone, the light app, with the
  // portal fetched but not run), so nothing waits for the network after the click.
  afterPaint(() =>
    whenIdle(() => {
      if (!lightAppMayFit(afterSignInPath())) {
        return warmPortalPage(afterSignInPath(), { data: false });
      }
      import("./pages/home/LightApp").catch(() => undefined);
      prefetchPortalCode();
    }),
  );
}

async function boot() {
  keepJoinToken();
  const path = location.pathname + location.search;
  const publicPage = PUBLIC_PAGES[location.pathname];
  if (publicPage) {
    const Page = await publicPage();
    render(<Page onSignedIn={() => showPortal(afterSignInPath())} />);
    return;
  }
  const onSignIn = location.pathname === "/login";
  if (onSignIn || !hadSession()) {
    if (!onSignIn) history.replaceState(null, "", path === "/" ? "/login" : `/login?to=${encodeURIComponent(path)}`);
    showSignIn();
    const { auth, flows } = await new Promise<Identity>((resolve) => afterPaint(() => resolve(identity())));
    await auth.authStateReady();
    // Back from a Google redirect, or a session the hint did not know about: go straight in.
    const redirected = await flows.finishRedirectSignIn();
    if (redirected && !redirected.ok)
      return showSignIn(
        redirected.mfa
          ? { success: false, mfa: redirected.mfa }
          : { success: false, error: { name: "form", message: redirected.message } },
      );
    if (auth.currentUser) await showPortal(onSignIn ? afterSignInPath() : path);
    return;
  }
  render(<BootScreen />);
  const early = lightAppMayFit(path) ? earlySubscriber() : undefined;
  if (early) return showEarlyLightApp(early, path);
  // A returning visitor: the portal's chunk loads while Firebase restores the session, not after
  // (unless the light app may do without it).
  if (!lightAppMayFit(path)) {
    warmPortalPage(path, { data: false }); // its data once the session is back (showPortal)
  }
  const { auth } = await identity();
  await auth.authStateReady();
  if (auth.currentUser) return showPortal(path);
  history.replaceState(null, "", path === "/" ? "/login" : `/login?to=${encodeURIComponent(path)}`);
  showSignIn();
}

/** A light page is drawn before anything else of the boot (showEarlyLightApp): third parties wait for its data. */
let pageFirst = false;

// Consent (and with it any third-party script) only for a build that configures such a service,
// after the first paint; on a returning subscriber's light page, once it has drawn its data.
if (consentNeeded)
  afterPaint(() => {
    const mount = () => void import("./consent/mountConsent").then((m) => m.mountConsent());
    if (pageFirst) whenPageDrawn(mount);
    else mount();
  });

boot().catch((error) => console.warn("Portal start-up did not finish; sign-in will retry.", error));
