import { describe, expect, it } from "vitest";
import { eachInParallel, eachPageInParallel } from "../../server/lib/eachInParallel";

/** A promise the test settles when it says so. */
function gate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open: () => open() };
}

describe("eachInParallel", () => {
  it("runs every item, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachInParallel([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      running--;
      done.push(n);
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it("stops taking items after a failure and rejects with it once the started ones end", async () => {
    const first = gate();
    const started: number[] = [];
    const run = eachInParallel([1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error("account 1 failed");
      await first.promise;
    });
    await Promise.resolve();
    first.open();
    await expect(run).rejects.toThrow("account 1 failed");
    expect(started).toEqual([1, 2]);
  });

  it("an empty list is done at once", async () => {
    await expect(eachInParallel([], 4, () => Promise.reject(new Error("never")))).resolves.toBeUndefined();
  });
});

describe("eachPageInParallel", () => {
  /** Pages of `size` from 1..n, after the last item of the page before, as a keyset query answers. */
  const keyset = (n: number, size: number, asked: (number | undefined)[]) => async (last: number | undefined) => {
    asked.push(last);
    await Promise.resolve();
    const from = (last ?? 0) + 1;
    return Array.from({ length: Math.max(0, Math.min(size, n - from + 1)) }, (_, i) => from + i);
  };

  it("asks for each page after the last one, once, and works every item once, never more pages at once than the limit", async () => {
    const asked: (number | undefined)[] = [];
    const worked: number[] = [];
    let running = 0;
    let most = 0;
    await eachPageInParallel(keyset(10, 3, asked), 2, async (page) => {
      running++;
      most = Math.max(most, running);
      // A turn of the event loop: the other worker's page arrives meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      worked.push(...page);
      running--;
    });
    expect(worked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Pages asked in order, each after the last item of the one before, until an empty one.
    expect(asked.slice(0, 5)).toEqual([undefined, 3, 6, 9, 10]);
    expect(most).toBe(2);
  });

  it("stops asking after a failure and rejects with it once the started pages end", async () => {
    const asked: (number | undefined)[] = [];
    const worked: number[][] = [];
    const run = eachPageInParallel(keyset(20, 2, asked), 2, async (page) => {
      if (page[0] === 1) throw new Error("page 1 failed");
      await Promise.resolve();
      worked.push([...page]);
    });
    await expect(run).rejects.toThrow("page 1 failed");
    // The page started beside the failing one ends; no page is asked after the failure is known.
    expect(worked).toEqual([[3, 4]]);
    expect(asked.length).toBeLessThanOrEqual(3);
  });

  it("a first page that is empty is done at once", async () => {
    await expect(
      eachPageInParallel(
        () => Promise.resolve([]),
        4,
        () => Promise.reject(new Error("never")),
      ),
    ).resolves.toBeUndefined();
  });
});
