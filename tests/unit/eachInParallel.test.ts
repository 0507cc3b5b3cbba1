import { describe, expect, it } from "vitest";
import { eachInParallel } from "../../server/lib/eachInParallel";

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
