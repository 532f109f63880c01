/** Call work(item, index) for every item, at most `limit` at a time, in order; resolves when all are done, rejects on the first failure or abort. */
export async function inParallel(items, limit, work, { signal } = {}) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const i = next++;
      await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
