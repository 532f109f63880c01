// In memory (a tmpfs) when there is one to spare: a shared VM's disk writes stall the writing benches
// (docs/measuring.md, "How a bench is measured"). An explicit TMPDIR is the user's word, and wins.
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const SHM_DIR = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
// A full run's data directory stays under 1 GiB (the redo log, the system tablespace and the
// benches' tables, which are emptied past 100k or 500k rows); twice that leaves room for the machine.
export const MIN_SHM_FREE_BYTES = 2 * 1024 ** 3;

const isTmpfs = (fs) => fs?.type === TMPFS_MAGIC;

/** Pure: the parent of the server's temp dir, and 'memory' or 'disk', from TMPDIR and the statfs facts of /dev/shm and the OS temp dir. */
export function chooseServerStorage({ tmpdirEnv, osTmpdir, shm, osTmp }) {
  if (!tmpdirEnv && isTmpfs(shm) && shm.freeBytes >= MIN_SHM_FREE_BYTES) return { base: SHM_DIR, storage: 'memory' };
  return { base: osTmpdir, storage: isTmpfs(osTmp) ? 'memory' : 'disk' };
}

function statfs(dir) {
  try {
    const s = statfsSync(dir);
    return { type: s.type, freeBytes: s.bavail * s.bsize };
  } catch {
    return null;
  }
}

export function serverStorage(env = process.env) {
  const osTmpdir = tmpdir();
  return chooseServerStorage({ tmpdirEnv: env.TMPDIR, osTmpdir, shm: statfs(SHM_DIR), osTmp: statfs(osTmpdir) });
}
