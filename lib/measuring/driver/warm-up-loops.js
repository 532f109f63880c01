// The warm-up and lead-in loops of a driver process: by time, until the time per operation has
// settled, or by a count of operations (--replay); bench-warm-up.js chooses.
import { performance } from 'node:perf_hooks';
import { guard, runCall } from './operation-calls.js';
import { mean, median } from '../../common/stats.js';
import { collectionPoint } from '../figures/warm-up-lengths.js';
import { opsPerCheckFor } from '../figures/window-sizing.js';

const WARMUP_BATCH_MS = 15;
const SETTLE_BATCHES = 3; // batches in a row that must not beat the best before them
const SETTLE_GAIN = 0.03; // by more than this share
const MAX_WARMUP_S = 1.5; // per process and bench, whatever the batches say

/** Pure: true when none of the last `last` batches' times per operation beat the best before them by more than `gain`. */
export function settled(batchMsPerOp, { last = SETTLE_BATCHES, gain = SETTLE_GAIN } = {}) {
  if (batchMsPerOp.length <= last) return false;
  const best = Math.min(...batchMsPerOp.slice(0, -last));
  return batchMsPerOp.slice(-last).every((ms) => ms > best * (1 - gain));
}

// Once settled, the warm-up waits for V8's queued compiles (jit.js) and settles again on the optimized
// code, at most MAX_COMPILE_PASSES times; a wait under COMPILE_QUIET_MS found nothing queued.
const MAX_COMPILE_PASSES = 4;
const COMPILE_QUIET_MS = 1;

/** At least `warmup` seconds, then with `settle` until settled(), at most `maxSeconds`; then the compile passes. */
export async function warmUp({
  ops, check, warmup, callTimeoutMs = 30000, signal, settle = true, maxSeconds = Math.max(MAX_WARMUP_S, warmup),
  clock = () => performance.now(), awaitJit = () => 0,
}) {
  const oneOp = { ops, count: 1, check };
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

/** An unmeasured lead-in, so a window's measured part starts on a running driver, server and CPU. */
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


// A replayed row's windows are sized by the median over slices of the warm-up's last quarter, so one
// stall of the host does not size them for good (docs/history/2026-11-26-replay-timed.md#figures-the-codes-comments-held).
const TIMED_SLICES = 8;

/** Warm-up of `count` operations; with `collect` (a full collection), once after the first sixteenth. */
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

export async function leadInByCount({ ops, check, count, opsPerCheck, callTimeoutMs = 30000, signal }) {
  const start = performance.now();
  if (count > 0) await guard(runCall({ ops, count, check, checkEvery: opsPerCheck }), callTimeoutMs, signal);
  return { ops: count * ops.length, msPerOp: count > 0 ? (performance.now() - start) / count : null };
}
