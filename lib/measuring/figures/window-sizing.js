// Pure: how many operations a window, its lead-in, its checks and its timed operations take, from
// a time per operation: the window sizer (adaptive, or fixed for a replayed row), and --replay's
// sizing policy with its formula.
import { median } from '../../common/stats.js';

// A check runs inside the measured part, so it runs about once per TARGET_CHECK_MS of operations
// (docs/history/2026-11-24-how-a-bench-is-measured.md#figures-the-codes-comments-held).
const TARGET_CHECK_MS = 10;
const MAX_OPS_PER_CHECK = 512;

/** One result in how many is checked, for operations of `msPerOp`: about one per TARGET_CHECK_MS. */
export const opsPerCheckFor = (msPerOp) => Math.max(1, Math.min(MAX_OPS_PER_CHECK, Math.round(TARGET_CHECK_MS / msPerOp)));

/**
 * A window's lead-in (seconds): `lead`, at most a third of the window's measured `windowS`. The
 * lead-in is benchmark.js's first cycle, which it discards for running under minTime (half a window).
 */
export const windowLead = (lead, windowS) => Math.min(lead, windowS / 3);

// Latencies are taken on a sample of the operations, about one per TIME_EVERY_MS of operations
// (every operation when one takes longer), at most one in MAX_OPS_PER_TIMING: a clock reading between
// operations slows the driver (docs/history/2026-11-24-limitations.md#limitations-as-the-readme-gave-them-before-they-were-cut).
const TIME_EVERY_MS = 1;
const MAX_OPS_PER_TIMING = 64;

/**
 * Pure: a replayed row's window in operations, from a time per operation (its first process's at
 * the end of its warm-up, then the row's sizing windows, then its rounds: REPLAY_SIZING), as an
 * adaptive sizer would size it then, kept for every window of every process of the row:
 * { ops, leadOps, opsPerCheck, opsPerTiming }.
 */
export function fixedWindowSizing(msPerOp, { windowS, lead }) {
  const count = (ms) => Math.max(1, Math.round(ms / msPerOp));
  return {
    ops: count(windowS * 1000),
    leadOps: lead > 0 ? count(windowLead(lead, windowS) * 1000) : 0,
    opsPerCheck: opsPerCheckFor(msPerOp),
    opsPerTiming: Math.min(MAX_OPS_PER_TIMING, count(TIME_EVERY_MS)),
  };
}

/**
 * A window sizer, handed to the sampler: how many operations (per connection) a window of about
 * `windowS` seconds runs, one in how many is timed (about one per TIME_EVERY_MS) and one result in how
 * many is checked.
 * - adaptive: from the previous window's time per operation (`lastMsPerOp`), else the lead-in's
 *   (`led`; a cold warm-up overestimates it several-fold), else the warm-up's (`msPerOp`). Not the
 *   warm-up's for timing, which can be far from the windows'.
 * - fixed: a replayed row's window (fixedWindowSizing), the same for every window.
 * Immutable: `after(msPerOp)` is the next window's sizer, given this window's time per operation.
 */
export function windowSizer({ msPerOp = null, opsPerCheck = null, lastMsPerOp = null, fixed = null }) {
  if (fixed) {
    const sizer = Object.freeze({
      fixed, opsPerCheck: fixed.opsPerCheck, leadOps: fixed.leadOps,
      ops: () => fixed.ops, opsPerTiming: () => fixed.opsPerTiming, after: () => sizer,
    });
    return sizer;
  }
  const planned = (led) => lastMsPerOp ?? led?.msPerOp ?? msPerOp;
  return Object.freeze({
    fixed: null, opsPerCheck, leadOps: 0,
    ops: (led, windowS) => Math.max(1, Math.round((windowS * 1000) / planned(led))),
    opsPerTiming: (led) => Math.max(1, Math.min(MAX_OPS_PER_TIMING, Math.round(TIME_EVERY_MS / planned(led)))),
    after: (windowMsPerOp) => windowSizer({ msPerOp, opsPerCheck, lastMsPerOp: windowMsPerOp }),
  });
}

// --replay's sizing policy. A process's first two windows run slow while V8 compiles the window's
// own path: a process runs windows until it has run `settledAfterWindows` in all, then
// `sizingWindows` more, which size its row (docs/history/2026-11-26-replay-timed.md#2026-11-26-later-morning-windows-sized-side-by-side-warm-ups-by-reply-bytes-issue-33).
// V8 still compiles the drivers' functions anew in a bench's first rounds: at round `resizeAtRound`
// the rows are sized again from their rounds since `resizeFromRound`
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
export const REPLAY_SIZING = Object.freeze({ settledAfterWindows: 2, sizingWindows: 2, resizeFromRound: 8, resizeAtRound: 24 });

/** --replay: the unkept windows a process runs before its row is sized, having run `windowsRun` already. */
export const sizingWindowsLeft = (windowsRun) => Math.max(0, REPLAY_SIZING.settledAfterWindows - windowsRun) + REPLAY_SIZING.sizingWindows;

/** --replay: does a sizing window, after which `left` remain, size its row? (The last `sizingWindows` do.) */
export const sizesRow = (left) => left < REPLAY_SIZING.sizingWindows;

/** --replay: a row's window from the times per operation of its sizing windows or rounds (their median). */
export const fixedFromMsPerOp = (msPerOps, { windowS, lead }) => fixedWindowSizing(median(msPerOps), { windowS, lead });
