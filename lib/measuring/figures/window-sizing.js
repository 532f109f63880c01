// Pure: how many operations a window, its lead-in, its checks and its timed operations take, from
// a time per operation: adaptive (from the previous window) or fixed (a replayed row's).

// A check runs inside the measured part. Checking the 1 000 rows of select_1000_rows every 2 ms
// (every other operation) made that bench's harness/bare-loop ratio (`calibrate`) 0.92-0.95.
const TARGET_CHECK_MS = 10;
const MAX_OPS_PER_CHECK = 512;

/** One result in how many is checked, for operations of `msPerOp`: about one per TARGET_CHECK_MS. */
export const opsPerCheckFor = (msPerOp) => Math.max(1, Math.min(MAX_OPS_PER_CHECK, Math.round(TARGET_CHECK_MS / msPerOp)));

/**
 * A window's lead-in (seconds): `lead`, at most a third of the window's measured `time`. The
 * lead-in is benchmark.js's first cycle, which it discards for running under minTime (half a window).
 */
export const windowLead = (lead, time) => Math.min(lead, time / 3);

// Latencies are taken on a sample of the operations, about one per TIME_EVERY_MS of operations
// (every operation when one takes longer), at most one in MAX_OPS_PER_TIMING. A clock reading
// between operations costs far more than in a tight loop (50 ns there): in windows taking turns in
// one process, a loop that read the clock a third of a time to twice per operation (keeping no
// latency) ran 0.2-1.4 % slower than the same loop without the readings, one that kept a value as
// often without reading the clock 0.1-0.7 % (2026-11-24, 600-700 rounds each): 0.2-1 µs a reading.
// One timed operation per 0.25 ms cost the drivers about 1 % against a bare loop; one per ms costs a
// quarter of that.
const TIME_EVERY_MS = 1;
const MAX_OPS_PER_TIMING = 64;
const plannedMsPerOp = (sizing, led) => sizing.lastMsPerOp ?? led?.msPerOp ?? sizing.msPerOp;

/**
 * How many operations (per connection) make a window of about `time` seconds (plannedMsPerOp), or
 * the fixed number of a replayed row (fixedWindowSizing).
 */
export function windowOps(sizing, led, time) {
  if (sizing.fixed) return sizing.fixed.ops;
  return Math.max(1, Math.round((time * 1000) / plannedMsPerOp(sizing, led)));
}

/**
 * Pure: a replayed row's window in operations, from a time per operation (its first process's at
 * the end of its warm-up, warm-up.js's warmUpByCount; then the row's sizing windows, then its
 * rounds, coordinator.js),
 * as windowOps and windowOpsPerTiming would size it then, and kept for every window of every
 * process of the row: { ops, leadOps, opsPerCheck, opsPerTiming }.
 */
export function fixedWindowSizing(msPerOp, { time, lead }) {
  const count = (ms) => Math.max(1, Math.round(ms / msPerOp));
  return {
    ops: count(time * 1000),
    leadOps: lead > 0 ? count(windowLead(lead, time) * 1000) : 0,
    opsPerCheck: opsPerCheckFor(msPerOp),
    opsPerTiming: Math.min(MAX_OPS_PER_TIMING, count(TIME_EVERY_MS)),
  };
}

/**
 * One operation in how many is timed in a window (plannedMsPerOp): about one per TIME_EVERY_MS. Not
 * the warm-up's time per operation: on `select_100_cols` it was twice the windows'.
 */
export function windowOpsPerTiming(sizing, led) {
  if (sizing.fixed) return sizing.fixed.opsPerTiming;
  return Math.max(1, Math.min(MAX_OPS_PER_TIMING, Math.round(TIME_EVERY_MS / plannedMsPerOp(sizing, led))));
}
