/**
 * Runs `work` on every item, at most `concurrency` at once, and resolves when all are done (the
 * first failure rejects, after the items already started have finished or failed). For jobs whose
 * items are independent transactions (the daily job's accounts): on PostgreSQL each takes a pooled
 * connection of its own; on PGlite, one connection, they queue as before.
 */
export async function eachInParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure) throw failure.error;
}

/**
 * Runs `work` on pages of items, at most `concurrency` pages at once: `nextPage(last)` answers the
 * items after the last one of the page before (undefined at first), in order, and an empty page
 * when there are no more. Pages are asked one at a time, so a job walks a keyset (the daily job's
 * accounts by id) without holding it all in memory. The first failure rejects, as eachInParallel.
 */
export async function eachPageInParallel<T>(
  nextPage: (last: T | undefined) => Promise<readonly T[]>,
  concurrency: number,
  work: (page: readonly T[]) => Promise<void>,
): Promise<void> {
  let last: T | undefined;
  let done = false;
  let asking: Promise<unknown> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  // One page asked at a time, in order: each ask waits for the one before it.
  const ask = () => {
    const page = asking.then(async () => {
      if (done || failure) return [];
      const items = await nextPage(last);
      if (items.length === 0) done = true;
      else last = items[items.length - 1];
      return items;
    });
    asking = page.catch(() => undefined);
    return page;
  };
  const worker = async () => {
    while (!failure && !done) {
      try {
        const page = await ask();
        if (page.length) await work(page);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure) throw failure.error;
}
