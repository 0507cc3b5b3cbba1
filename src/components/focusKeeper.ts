/**
 * Keeps keyboard focus on the page when a dialog's trigger is gone. A dialog gives focus back to the
 * button that opened it; but once the action is done that button may be gone (Suspend becomes
 * Restore, a paid bill's Pay goes, a removed card goes with its Remove), and the browser drops focus
 * to <body>: a keyboard or screen reader user starts again from the top of the page. Instead, focus
 * goes to what now stands where the trigger stood (the focusable nearest to it in its closest
 * container still on the page), or else to the page's main heading.
 *
 * One watcher for every dialog (action dialogs, confirmations, menus), installed once by the
 * signed-in frame (components/layout/PortalLayout.tsx). Going back (Cancel, Escape) is untouched:
 * the dialog's own return to a trigger still there is what happens.
 */

/** What opens over the page and takes focus: dialogs, confirmations (popovers) and menus. */
const OVERLAY = "[role=dialog], [role=alertdialog], .ant-modal-root, .ant-modal-wrap, .ant-popover, .ant-dropdown";
const FOCUSABLE =
  "button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

interface Place {
  element: Element;
  /** Its ancestors then, nearest first: where to look for what replaced it. */
  ancestors: Element[];
  left: number;
  top: number;
}

function placeOf(element: Element): Place {
  const ancestors: Element[] = [];
  for (let up = element.parentElement; up; up = up.parentElement) ancestors.push(up);
  const { left, top } = element.getBoundingClientRect();
  return { element, ancestors, left, top };
}

/** Not on the page any more, or inside something hidden (a closed dialog kept in the document). */
function gone(element: Element): boolean {
  if (!element.isConnected) return true;
  const { checkVisibility } = element as { checkVisibility?: () => boolean }; // not in jsdom
  if (checkVisibility) return !checkVisibility.call(element);
  // Where the browser cannot say (jsdom): hidden by an attribute or an inline display: none.
  for (let up: Element | null = element; up; up = up.parentElement) {
    if (up.hasAttribute("hidden")) return true;
    if (up instanceof HTMLElement && up.style.display === "none") return true;
  }
  return false;
}

const inOverlay = (element: Element) => Boolean(element.closest(OVERLAY));

/** The focusables of a container a person can reach now: on the page, not in a dialog. */
const reachable = (container: Element) =>
  [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !gone(el) && !inOverlay(el));

/** The page's main heading, made focusable by script only (tabIndex -1): where a lost focus starts again. */
function mainHeading(doc: Document): HTMLElement | null {
  const main = doc.querySelector("main") ?? doc.body;
  const heading =
    main.querySelector<HTMLElement>("h1") ??
    main.querySelector<HTMLElement>("h2, .ant-page-header-heading-title") ??
    main.querySelector<HTMLElement>("h3, h4");
  const target = heading ?? (main === doc.body ? null : main);
  if (target && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  return target;
}

/** What takes focus instead of a trigger that is gone: its replacement, else the main heading. */
function replacementOf(trigger: Place, doc: Document): HTMLElement | null {
  if (!gone(trigger.element) && trigger.element instanceof HTMLElement) return trigger.element;
  const main = doc.querySelector("main");
  for (const container of trigger.ancestors) {
    // Past the page's content, nothing near the trigger is left: the heading says where one is.
    if (container === main || container === doc.body || container === doc.documentElement) break;
    if (gone(container)) continue;
    const candidates = reachable(container);
    if (!candidates.length) continue;
    const distance = (el: HTMLElement) => {
      const { left, top } = el.getBoundingClientRect();
      return Math.hypot(left - trigger.left, top - trigger.top);
    };
    return candidates.reduce((best, el) => (distance(el) < distance(best) ? el : best));
  }
  return mainHeading(doc);
}

/** Installs the watcher; returns how to remove it. */
export function keepFocusOnPage(doc: Document = document): () => void {
  let held: Place | undefined; // what last had focus
  let trigger: Place | undefined; // what opened the dialog or menu focus went into, while it matters

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (inOverlay(target)) {
      // Focus went from the page into a dialog or menu: what had it is the trigger to come back to.
      if (held && !inOverlay(held.element) && !gone(held.element)) trigger = held;
    } else if (trigger && target !== trigger.element) trigger = undefined; // the person moved on
    held = placeOf(target);
  };

  const lost = () => {
    const active = doc.activeElement;
    return !active || active === doc.body || active === doc.documentElement || gone(active);
  };

  const rescue = () => {
    if (!trigger || !held || !lost() || !gone(held.element)) return;
    // Only focus a dialog or its trigger held; a link followed or a page left is not this.
    if (!inOverlay(held.element) && held.element !== trigger.element) return;
    // A dialog still open that changed under focus (a form giving way to its outcome) keeps it.
    const overlay = held.ancestors.filter((el) => el.matches(OVERLAY)).pop(); // the outermost
    if (overlay && !gone(overlay)) return;
    const to = replacementOf(trigger, doc);
    trigger = undefined;
    to?.focus();
  };

  const observer = new MutationObserver(rescue);
  observer.observe(doc.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["style", "class", "hidden"],
  });
  doc.addEventListener("focusin", onFocusIn);
  return () => {
    observer.disconnect();
    doc.removeEventListener("focusin", onFocusIn);
  };
}
