/**
 * `window.matchMedia` as a screen `width` px wide answers it: a `min-width` query holds up to that
 * width, a `max-width` one from it. antd's breakpoints (Grid.useBreakpoint) read these; jsdom has no
 * screen. Use as `vi.spyOn(window, "matchMedia").mockImplementation(screenWidth(1280))`.
 */
export function screenWidth(width: number): (query: string) => MediaQueryList {
  return (query) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: (!min || Number(min[1]) <= width) && (!max || Number(max[1]) >= width),
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  };
}
