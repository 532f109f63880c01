// What makes the processes of a row run the same program, where the figure is the driver's own cost
// (--replay, timed; --count instructions): V8's determinism flags, one address layout, and (timed)
// fixed malloc thresholds.
import { spawnSync } from 'node:child_process';

// V8's determinism flags (as CodSpeed runs JavaScript under Valgrind): no concurrent compiles or GC
// threads whose timing would change what the main thread does, a fixed GC schedule, fixed seeds
// (hash tables, Math.random, V8's own address hints: every process draws the same parameters), and no
// GC or compile work started by a timer (incremental-marking and scavenge tasks, the memory reducer),
// which under Valgrind fell at a different operation on every run: mariadb's count moved by up to 18 %
// between two runs until these were off. No incremental marking either: its steps are sized by the
// marking speed it measures in time, so a mark-compact finished in one window or another from run to
// run (mariadb's `do` read 23,131 and 25,481); atomic, it falls at the same operation every time. No
// allocation-site pretenuring: its decisions rest on what start-up allocated before the first
// collection, which ES modules' asynchronous loading varies; with it, mysql's `batch` settled in one
// of three steady states 0.27 % apart (four runs, 2026-11-25), without it four runs read 322,003 to
// 322,020. Timed, without them, a replayed row's processes settled at speeds up to 15 % apart
// (docs/measuring-history.md, 2026-11-26, "Replayed time").
export const DETERMINISTIC_V8_FLAGS = Object.freeze([
  '--predictable', '--predictable-gc-schedule', '--single-threaded', '--hash-seed=1', '--random-seed=1',
  '--no-incremental-marking', '--no-incremental-marking-task', '--no-minor-gc-task', '--no-memory-reducer',
  '--no-concurrent-recompilation', '--no-concurrent-osr', '--no-concurrent-sparkplug',
  '--no-allocation-site-pretenuring',
]);

// The same instructions ran 2-23 % apart in processes whose libraries, stack and heap the kernel had
// placed at random addresses, 0.2-1.8 % apart with the placement fixed (setarch -R: the process runs
// without address-space randomization; docs/measuring-history.md, 2026-11-26, "Replayed time").
const SETARCH = 'setarch';
let launcher;

/**
 * How to start a process with address-space randomization off: { command, args } to put before the
 * program, or null where setarch (util-linux) is missing or may not change the personality.
 */
export function fixedLayoutLauncher() {
  if (launcher === undefined) {
    const r = spawnSync(SETARCH, ['-R', 'true'], { stdio: 'ignore' });
    launcher = r.status === 0 ? { command: SETARCH, args: ['-R'] } : null;
  }
  return launcher;
}

// glibc's malloc moves its mmap threshold up each time a process frees a chunk it had mapped, and
// gives memory back to the kernel at its trim threshold, so where a process's large buffers come
// from depends on what it happened to free first. Replayed, mariadb's `batch` processes ran at
// 0.71-1.13 of their row's median speed, the slow ones taking five times the page faults per
// operation and a microsecond of system time; with both thresholds fixed, eight processes ran
// within 1 % of each other, twice (docs/measuring-history.md, "malloc's moving thresholds").
// 32 MiB is the largest mmap threshold glibc takes; nothing is trimmed below 256 MiB.
export const FIXED_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456';

/** A replayed driver process's GLIBC_TUNABLES: the caller's own (`inherited`), then the fixed thresholds, which win. */
export const fixedMallocTunables = (inherited) => (inherited ? `${inherited}:${FIXED_MALLOC_TUNABLES}` : FIXED_MALLOC_TUNABLES);
