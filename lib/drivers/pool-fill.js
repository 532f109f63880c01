// Pools are handed to a bench full: all `size` connections open before the first measured call, for
// every driver alike (mariadb's pool opens them in the background, mysql's and mysql2's on demand).

/** Borrow `size` connections at once from a promise pool (getConnection / release), then return them. */
export async function fillPool(pool, size) {
  const settled = await Promise.allSettled(Array.from({ length: size }, () => pool.getConnection()));
  for (const s of settled) if (s.status === 'fulfilled') Promise.resolve(s.value.release()).catch(() => {});
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.resolve(pool.end()).catch(() => {});
    throw failed.reason;
  }
}
