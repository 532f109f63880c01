// The warm-up and lead-in loops of a driver process: by time, until the time per operation has
// settled (and V8's compiles are done), or by a count of operations (--replay). Which one a bench
// gets is bench-warm-up.js's choice; how long they run, figures/warm-up-lengths.js.
import { performance } from 'node:perf_hooks';
import { guard, runCall } from './operation-calls.js';
import { mean, median } from '../../common/stats.js';
import { collectionPoint } from '../figures/warm-up-lengths.js';
import { opsPerCheckFor } from '../figures/window-sizing.js';

const WARMUP_BATCH_MS = 15;
const SETTLE_BATCHES = 3; // batches in a row that must not beat the best before them
const SETTLE_GAIN = 0.03; // by more than this share
const MAX_WARMUP_S = 1.5; // per process and bench, whatever the batches say

/**
 * Pure: has a warm-up settled? True when none of the last SETTLE_BATCHES batches' times per
 * operation beat the best batch before them by more than SETTLE_GAIN.
 */
export function settled(batchMsPerOp, { last = SETTLE_BATCHES, gain = SETTLE_GAIN } = {}) {
  if (batchMsPerOp.length <= last) return false;
  const best = Math.min(...batchMsPerOp.slice(0, -last));
  return batchMsPerOp.slice(-last).every((ms) => ms > best * (1 - gain));
}

// After the time per operation has settled, the warm-up waits for the compiles V8 still has
// queued (jit.js), then settles again on the optimized code, at most MAX_COMPILE_PASSES times; a
// wait under COMPILE_QUIET_MS found nothing queued.
const MAX_COMPILE_PASSES = 4;
const COMPILE_QUIET_MS = 1;

/**
 * Warm-up: operations back to back, every result checked, in batches of about WARMUP_BATCH_MS,
 * for at least `warmup` seconds (and 3 operations), then, with `settle`, on until the time per
 * operation has settled (settled()), at most MAX_WARMUP_S; then, given `awaitJit` (jit.js's
 * awaitCompiles, with --jit wait), it waits for V8's queued compiles and, when there were some,
 * settles again. Returns what sizes the sampled
 * calls: { msPerOp (of the last batches), opsPerCheck, seconds, compileWaitSeconds }.
 * `clock` (ms) is for tests.
 */
export async function warmUp({
  ops, check, warmup, callTimeoutMs = 30000, signal, settle = true, maxSeconds = Math.max(MAX_WARMUP_S, warmup),
  clock = () => performance.now(), awaitJit = () => 0,
}) {
  const oneOp = { ops, count: 1, check }; // each call: one operation per connection, checked
  let warmOps = 0;
  let batches = [];
  const warmStart = clock();
  let now = warmStart;
  const batch = async () => {
    const batchStart = now;
    let batchOps = 0;
    do {
      await guard(runCall(oneOp), callTimeoutMs, signal);
      batchOps++;
      now = clock();
    } while (now - batchStart < WARMUP_BATCH_MS);
    warmOps += batchOps;
    batches.push((now - batchStart) / batchOps);
  };
  const minEnd = warmStart + warmup * 1000;
  let maxEnd = warmStart + maxSeconds * 1000;
  do await batch();
  while (now < maxEnd && (now < minEnd || warmOps < 3 || (settle && !settled(batches))));
  let compileWaitMs = 0;
  for (let pass = 0; pass < MAX_COMPILE_PASSES; pass++) {
    const waited = awaitJit();
    if (waited < COMPILE_QUIET_MS) break;
    compileWaitMs += waited;
    batches = [];
    now = clock();
    maxEnd = now + maxSeconds * 1000;
    do await batch();
    while (now < maxEnd && (batches.length <= SETTLE_BATCHES || (settle && !settled(batches))));
  }
  const msPerOp = mean(batches.slice(-SETTLE_BATCHES));
  return {
    msPerOp,
    opsPerCheck: opsPerCheckFor(msPerOp),
    seconds: (now - warmStart) / 1000,
    compileWaitSeconds: compileWaitMs / 1000,
  };
}

/**
 * An unmeasured lead-in: operations back to back for `seconds` (each result checked), so a window's
 * measured part starts on a running driver, server and CPU. Returns { ops, msPerOp } (msPerOp: the
 * time per operation it saw, null if it ran none).
 */
export async function leadIn({ ops, check, seconds, callTimeoutMs = 30000, signal }) {
  const oneOp = { ops, count: 1, check };
  let calls = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    await guard(runCall(oneOp), callTimeoutMs, signal);
    calls++;
  }
  return { ops: calls * ops.length, msPerOp: calls > 0 ? (performance.now() - start) / calls : null };
}


// The time per operation that sizes a replayed row's windows: the median of the warm-up's last
// quarter cut in this many slices, so that a stall of the host in one slice does not size the row's
// windows for good (docs/history/2026-11-26-replay-timed.md#figures-the-codes-comments-held).
const TIMED_SLICES = 8;

/**
 * Warm-up of `count` operations back to back, every result checked; with `collect` (a full
 * collection), collecting once after the first sixteenth of them. Returns the sizing of warmUp, its
 * time per operation the median over slices of the last quarter, and `count`.
 */
export async function warmUpByCount({ ops, check, count, collect = null, callTimeoutMs = 30000, signal, clock = () => performance.now() }) {
  const start = clock();
  const timed = Math.max(TIMED_SLICES, Math.floor(count / 4));
  const slice = Math.floor(timed / TIMED_SLICES);
  const oneOp = { ops, count: 1, check };
  const run = async (n) => {
    for (let i = 0; i < n; i++) await guard(runCall(oneOp), callTimeoutMs, signal);
  };
  const untimed = Math.max(0, count - slice * TIMED_SLICES);
  const before = collect ? Math.min(untimed, collectionPoint(count)) : untimed;
  await run(before);
  if (collect) {
    collect();
    await run(untimed - before);
  }
  const slices = [];
  for (let k = 0; k < TIMED_SLICES; k++) {
    const t0 = clock();
    await run(slice);
    slices.push((clock() - t0) / slice);
  }
  const msPerOp = median(slices);
  return {
    msPerOp,
    opsPerCheck: opsPerCheckFor(msPerOp),
    seconds: (clock() - start) / 1000,
    compileWaitSeconds: 0,
    count,
  };
}

/** An unmeasured lead-in of `count` operations (per connection). Returns { ops, msPerOp } as leadIn. */
export async function leadInByCount({ ops, check, count, opsPerCheck, callTimeoutMs = 30000, signal }) {
  const start = performance.now();
  if (count > 0) await guard(runCall({ ops, count, check, checkEvery: opsPerCheck }), callTimeoutMs, signal);
  return { ops: count * ops.length, msPerOp: count > 0 ? (performance.now() - start) / count : null };
}
