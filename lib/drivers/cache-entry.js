// A cache entry made whole or not at all: filled in a temporary sibling directory, then renamed into
// place, so an interrupted fill never leaves a half-made entry; when another run finished the same
// entry meanwhile, theirs is kept.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** `fill(tmp)` fills the entry; `finished(dir)` says whether an entry already in place is whole. */
export async function fillIntoPlace(dir, fill, { finished = existsSync } = {}) {
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await fill(tmp);
    try {
      rmSync(dir, { recursive: true, force: true }); // a stale, incomplete entry
      renameSync(tmp, dir);
    } catch (err) {
      if (!finished(dir)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
