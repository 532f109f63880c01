// The git rows' cache kept to a size: commits' files and dependency installs (git.js), each entry
// stamped when a run uses it, removed oldest first when the whole exceeds the bound, never one the
// running harness uses. $MYSQL_DRIVER_BENCH_GIT_CACHE_MB sets the bound (default 2048 MiB).
import { lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gitCacheDirs } from './git.js';

export const DEFAULT_GIT_CACHE_MB = 2048;

export function gitCacheBound(env = process.env) {
  const mb = Number(env.MYSQL_DRIVER_BENCH_GIT_CACHE_MB);
  return (Number.isFinite(mb) && mb >= 0 ? mb : DEFAULT_GIT_CACHE_MB) * 1024 * 1024;
}

/** Bytes under `path`, symbolic links not followed (a commit's node_modules link counts as a link). */
function sizeOf(path) {
  let st;
  try { st = lstatSync(path); } catch { return 0; }
  if (!st.isDirectory()) return st.size;
  let total = st.size;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

const lastUsed = (dir) => {
  try { return statSync(join(dir, '.last-used')).mtimeMs; } catch { return 0; }
};

/** Every finished entry of the cache: { dir, bytes, usedMs }, oldest first. */
export function gitCacheEntries(cacheDir) {
  const entries = [];
  for (const parent of Object.values(gitCacheDirs(cacheDir))) {
    let names = [];
    try { names = readdirSync(parent); } catch { /* none yet */ }
    for (const name of names.filter((n) => !n.includes('.tmp-'))) {
      const dir = join(parent, name);
      entries.push({ dir, bytes: sizeOf(dir), usedMs: lastUsed(dir) });
    }
  }
  return entries.sort((a, b) => a.usedMs - b.usedMs);
}

/** Least recently used entries removed until within `maxBytes`, but not `keep` (this run's): { removed, bytes left }. */
export function pruneGitCache(cacheDir, { keep = [], maxBytes = gitCacheBound() } = {}) {
  const entries = gitCacheEntries(cacheDir);
  let bytes = entries.reduce((n, e) => n + e.bytes, 0);
  const removed = [];
  for (const e of entries) {
    if (bytes <= maxBytes) break;
    if (keep.includes(e.dir)) continue;
    rmSync(e.dir, { recursive: true, force: true });
    bytes -= e.bytes;
    removed.push(e.dir);
  }
  return { removed, bytes };
}
