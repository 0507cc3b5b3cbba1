// A hint, not a credential: whether this browser had a signed-in session. It lets the entry show
// the sign-in form at once to visitors who have none, instead of first loading firebase/auth to
// ask. Firebase stays the truth: a wrong hint only costs a redirect.
const KEY = "portal.session";

export function hadSession(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return true; // storage blocked: ask Firebase, the slower but sure way
  }
}

export function rememberSession(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    // storage blocked: nothing to remember
  }
}
