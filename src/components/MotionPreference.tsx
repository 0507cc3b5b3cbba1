import { useSyncExternalStore, type ReactNode } from "react";
import { Provider as MotionProvider } from "rc-motion";

const REDUCE = "(prefers-reduced-motion: reduce)";

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(REDUCE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** Whether the visitor asked their system for less motion; follows a change made while the page is open. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(REDUCE).matches,
    () => false,
  );
}

/**
 * antd's dialogs, drawers and menus without their zoom and slide animations for a visitor who asked
 * for less motion (WCAG 2.3.3). It also means a dialog closed the moment it opened is gone at once:
 * antd keeps a closing dialog, old content and all, until its leave animation reports its end.
 * Only the animations change, not the theme, so the styles the build rendered still apply.
 */
export function MotionPreference({ children }: { children: ReactNode }) {
  const reduced = usePrefersReducedMotion();
  return <MotionProvider motion={!reduced}>{children}</MotionProvider>;
}
