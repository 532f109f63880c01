// Pure: how long a driver process warms up, which both the run's settings and the driver process read.

// A new process runs slowly while V8 moves its hot code up through its compilers
// (docs/history/2026-11-24-how-a-bench-is-measured.md#warm-up).
export const NEW_PROCESS_WARMUP_S = 0.5;

// --replay: the same number of operations in each process, so they run the same program
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
export const REPLAY_WARMUP_OPS = 4096;
export const SMOKE_REPLAY_WARMUP_OPS = 256;

// Collecting before mysql2's row parser is first optimized, so it is compiled once, not twice
// (docs/history/2026-11-26-replay-pace.md#2026-11-26-late-afternoon-a-parser-compiled-twice-and-a-fixture-sized-by-its-own-work-issue-33).
const COLLECT_AFTER_SHARE = 1 / 16;

export const collectionPoint = (count) => Math.floor(count * COLLECT_AFTER_SHARE);
