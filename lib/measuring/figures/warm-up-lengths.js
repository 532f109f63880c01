// Pure: how long a driver process warms up, which both the run's settings and the driver process read.

// A new process runs its first operations slowly while V8 moves its hot code up through its
// compilers, in steps that a shorter warm-up did not outlast
// (docs/history/2026-11-24-how-a-bench-is-measured.md#warm-up).
export const NEW_PROCESS_WARMUP_S = 0.5;

// --replay: a row's processes warm up for a number of operations, the same in each, so that they run
// the same program; fewer left the drivers' row parsers compiling in the rounds
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
export const REPLAY_WARMUP_OPS = 4096;
export const SMOKE_REPLAY_WARMUP_OPS = 256;

// A replayed warm-up collects once after its first sixteenth, before mysql2's row parser is first
// optimized, so that it is compiled once and not twice
// (docs/history/2026-11-26-replay-pace.md#2026-11-26-late-afternoon-a-parser-compiled-twice-and-a-fixture-sized-by-its-own-work-issue-33).
const COLLECT_AFTER_SHARE = 1 / 16;

/** The operations a replayed warm-up of `count` runs before its full collection. */
export const collectionPoint = (count) => Math.floor(count * COLLECT_AFTER_SHARE);
