import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";
import { addResourceMessages } from "../../src/i18n/resourceMessages";

// The portal merges the declarations' own labels at start (App.tsx); pages rendered alone need them too.
addResourceMessages();

// antd reads matchMedia for responsive grids; jsdom has none.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}

afterEach(() => cleanup());
