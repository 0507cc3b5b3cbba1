import { useContext } from "react";
import { act, render, screen } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
// The context antd reads, from the build of rc-motion that vitest resolves "rc-motion" to (CommonJS).
import { Context as MotionContext } from "rc-motion/lib/context";
import { MotionPreference } from "../../src/components/MotionPreference";

/** A matchMedia whose "(prefers-reduced-motion: reduce)" answer the test sets and changes. */
function systemAsksForLessMotion(initially: boolean) {
  let matches = initially;
  const listeners = new Set<() => void>();
  vi.spyOn(window, "matchMedia").mockImplementation(
    (query: string) =>
      ({
        get matches() {
          return query === "(prefers-reduced-motion: reduce)" && matches;
        },
        media: query,
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
      }) as unknown as MediaQueryList,
  );
  return (next: boolean) => {
    matches = next;
    listeners.forEach((listener) => listener());
  };
}

/** What antd's dialogs and drawers read: motion false turns their animations off. */
function AnimationsShown() {
  return <span>{String(useContext(MotionContext).motion)}</span>;
}

afterEach(() => vi.restoreAllMocks());

test("antd's animations are off for a visitor who asks for less motion, and follow a change made while the page is open", () => {
  const change = systemAsksForLessMotion(true);
  render(
    <MotionPreference>
      <AnimationsShown />
    </MotionPreference>,
  );
  expect(screen.getByText("false")).toBeTruthy();
  act(() => change(false));
  expect(screen.getByText("true")).toBeTruthy();
  act(() => change(true));
  expect(screen.getByText("false")).toBeTruthy();
});

test("antd's animations stay on for everyone else", () => {
  systemAsksForLessMotion(false);
  render(
    <MotionPreference>
      <AnimationsShown />
    </MotionPreference>,
  );
  expect(screen.getByText("true")).toBeTruthy();
});
