import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";

// antd reads matchMedia for responsive grids; jsdom has none.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}

afterEach(() => cleanup());
