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
