// What makes a row's processes run the same program where the figure is the driver's own cost (--replay,
// --count): V8's determinism flags, one address layout, fixed malloc thresholds.
import { spawnSync } from 'node:child_process';

// V8's determinism flags (as CodSpeed runs JavaScript under Valgrind): each moved the same program's figures
// (docs/history/2026-11-25-replay-and-counts.md#instruction-counts-without-allocation-site-pretenuring-2026-11-26,
// docs/history/2026-11-26-replay-timed.md#2026-11-26-morning-replayed-time-one-program-issue-33).
export const DETERMINISTIC_V8_FLAGS = Object.freeze([
  '--predictable', '--predictable-gc-schedule', '--single-threaded', '--hash-seed=1', '--random-seed=1',
  '--no-incremental-marking', '--no-incremental-marking-task', '--no-minor-gc-task', '--no-memory-reducer',
  '--no-concurrent-recompilation', '--no-concurrent-osr', '--no-concurrent-sparkplug',
  '--no-allocation-site-pretenuring',
]);

// One address layout (setarch -R): the same instructions ran far apart with libraries, stack and heap
// at random addresses (docs/history/2026-11-26-replay-timed.md#2026-11-26-morning-replayed-time-one-program-issue-33).
const SETARCH = 'setarch';
let launcher;

/** { command, args } to start a process with address-space randomization off, or null where setarch cannot. */
export function fixedLayoutLauncher() {
  if (launcher === undefined) {
    const r = spawnSync(SETARCH, ['-R', 'true'], { stdio: 'ignore' });
    launcher = r.status === 0 ? { command: SETARCH, args: ['-R'] } : null;
  }
  return launcher;
}

export const addressLayout = () => (fixedLayoutLauncher() ? 'fixed' : 'randomized (setarch -R could not run)');

// glibc's malloc moves its thresholds with what a process freed first; 32 MiB is the largest mmap threshold
// (docs/history/2026-11-26-replay-pace.md#2026-11-26-early-afternoon-mallocs-moving-thresholds-issue-33).
export const FIXED_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456';

/** The caller's GLIBC_TUNABLES, then the fixed thresholds, which win. */
export const fixedMallocTunables = (inherited, tunables = FIXED_MALLOC_TUNABLES) => (inherited ? `${inherited}:${tunables}` : tunables);
