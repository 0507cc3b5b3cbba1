import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";
import { addResourceMessages } from "../../src/i18n/resourceMessages";

// The portal merges the declarations' own labels at start (App.tsx); pages rendered alone need them too.
addResourceMessages();

// antd reads matchMedia for responsive grids; jsdom has none.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// findBy* waits are conditions: on a machine loaded to both cores a render can take longer than the default 1 s.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
