// Pure: how many operations a window, its lead-in, its checks and its timed operations take, from a
// time per operation (adaptive, or fixed for a replayed row), and --replay's sizing policy.
import { median } from '../../common/stats.js';

// A check runs inside the measured part, so it runs about once per TARGET_CHECK_MS of operations
// (docs/history/2026-11-24-how-a-bench-is-measured.md#figures-the-codes-comments-held).
const TARGET_CHECK_MS = 10;
const MAX_OPS_PER_CHECK = 512;

export const opsPerCheckFor = (msPerOp) => Math.max(1, Math.min(MAX_OPS_PER_CHECK, Math.round(TARGET_CHECK_MS / msPerOp)));

/** At most a third of the window: the lead-in is benchmark.js's first cycle, discarded for running under minTime (half a window). */
export const windowLead = (lead, windowS) => Math.min(lead, windowS / 3);

// Latencies are timed on about one operation per TIME_EVERY_MS: a clock reading between operations
// slows the driver (docs/history/2026-11-24-limitations.md#limitations-as-the-readme-gave-them-before-they-were-cut).
const TIME_EVERY_MS = 1;
const MAX_OPS_PER_TIMING = 64;

/** Pure: a replayed row's window, as an adaptive sizer would size it, kept for every window of the row. */
export function fixedWindowSizing(msPerOp, { windowS, lead }) {
  const count = (ms) => Math.max(1, Math.round(ms / msPerOp));
  return {
    ops: count(windowS * 1000),
    leadOps: lead > 0 ? count(windowLead(lead, windowS) * 1000) : 0,
    opsPerCheck: opsPerCheckFor(msPerOp),
    opsPerTiming: Math.min(MAX_OPS_PER_TIMING, count(TIME_EVERY_MS)),
  };
}

/** Immutable. Adaptive: from the last window's ms/op, else the lead-in's, else the warm-up's (a cold one overestimates it several-fold). */
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

// --replay: a process's first windows run slow while V8 compiles the window's path, so the row is sized after them
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-later-morning-windows-sized-side-by-side-warm-ups-by-reply-bytes-issue-33);
// V8 still recompiles drivers in the first rounds, so rows are sized again at `resizeAtRound`
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
export const REPLAY_SIZING = Object.freeze({ settledAfterWindows: 2, sizingWindows: 2, resizeFromRound: 8, resizeAtRound: 24 });

export const sizingWindowsLeft = (windowsRun) => Math.max(0, REPLAY_SIZING.settledAfterWindows - windowsRun) + REPLAY_SIZING.sizingWindows;

export const sizesRow = (left) => left < REPLAY_SIZING.sizingWindows;

export const fixedFromMsPerOp = (msPerOps, { windowS, lead }) => fixedWindowSizing(median(msPerOps), { windowS, lead });
