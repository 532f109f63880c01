// Before a driver process's windows: the warm-up that runs until the time per operation has settled
// (and V8's compiles are done) and sizes the sampled calls, and the unmeasured lead-in before a window.
import { performance } from 'node:perf_hooks';
import { guard, runCall } from './operation-calls.js';
import { mean, median } from '../common/stats.js';

// A check runs inside the measured part. Checking the 1 000 rows of select_1000_rows every 2 ms
// (every other operation) made that bench's harness/bare-loop ratio (`calibrate`) 0.92-0.95.
const TARGET_CHECK_MS = 10;
const MAX_OPS_PER_CHECK = 512;

/** One result in how many is checked, for operations of `msPerOp`: about one per TARGET_CHECK_MS. */
export const opsPerCheckFor = (msPerOp) => Math.max(1, Math.min(MAX_OPS_PER_CHECK, Math.round(TARGET_CHECK_MS / msPerOp)));

// A new driver process runs its first operations slowly for a while, as V8 moves its hot code up
// through its compilers: with a warm-up of 75 ms per process, the first 16 of 120 rounds of `do`
// ran at a third to a half of the later rounds' speed here, `insert` (the next bench) at two
// thirds. A process's time per operation on `do` fell in steps, with plateaus of up to 100 ms,
// from 185-365 µs to 22-32 µs over its first 300-400 ms. So a new process warms up for at least
// NEW_PROCESS_WARMUP_S, and every warm-up runs on, in batches, until the time per operation stops
// improving.
export const NEW_PROCESS_WARMUP_S = 0.5;
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
  let warmOps = 0;
  let batches = [];
  const warmStart = clock();
  let now = warmStart;
  const batch = async () => {
    const batchStart = now;
    let batchOps = 0;
    do {
      await guard(runCall(ops, 1, check, null, 1), callTimeoutMs, signal);
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
  let calls = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    await guard(runCall(ops, 1, check, null, 1), callTimeoutMs, signal);
    calls++;
  }
  return { ops: calls * ops.length, msPerOp: calls > 0 ? (performance.now() - start) / calls : null };
}


// --replay: a replayed row's processes run the same program (same-program.js) only if they also run
// the same operations, so they warm up for a number of operations, not a time, and their windows are
// sized in operations too (sampler.js's fixedWindowSizing). Warmed up for a time, with windows sized
// from the previous window, a row's processes settled at speeds up to 15 % apart, each at its own
// point of V8's tiering and collections (docs/history/2026-11-26-replay-timed.md#2026-11-26-morning-replayed-time-one-program-issue-33).
// 4,096 operations: traced with --trace-opt (2026-11-26, "Warm-ups two at a time"), the windows after
// warm-ups of 16,384 saw as many compiles as after 4,096 (the window's own path compiles in the
// windows either way); after 1,024, mysql's row parsing on select_1000_rows and mysql2's on
// select_100_cols still compiled in the rounds.
export const REPLAY_WARMUP_OPS = 4096;
export const SMOKE_REPLAY_WARMUP_OPS = 256;

// The time per operation that sizes a replayed row's windows: the median of the warm-up's last
// quarter cut in this many slices, so that a stall of the host in one slice does not size the row's
// windows for good (one row of an A/A had windows half its twin's, and read 3.9 % slower).
const TIMED_SLICES = 8;

// A full collection, given `collect`, early in the warm-up. Optimized code holds weak references to
// objects it was compiled against; the first full collection after those objects died (objects of
// the process's set-up) threw away the optimized code of 24-26 functions of every mysql2 process at
// once (V8 says "weak objects"), its generated row parser among them, which V8 then compiled again
// on the process's own thread for 2.7-4.4 s (`select_100_cols`): one window in each process
// stalled at 260 ops/s, the windows before it ran at 0.4 of the row's speed, and the stalls used up
// half the bench's rounds. Collected after the warm-up's first sixteenth, before that parser is
// first optimized, the set-up's objects die there and the parser is compiled once; collected after
// three quarters, it was compiled twice, 6-8 s of warm-up a process (docs/history/2026-11-26-replay-pace.md,
// 2026-11-26, "a parser compiled twice").
const COLLECT_AFTER_SHARE = 1 / 16;

/** The operations a replayed warm-up of `count` runs before its full collection. */
export const collectionPoint = (count) => Math.floor(count * COLLECT_AFTER_SHARE);

/**
 * Warm-up of `count` operations back to back, every result checked; with `collect` (a full
 * collection), collecting once after the first sixteenth of them. Returns the sizing of warmUp, its
 * time per operation the median over slices of the last quarter, and `count`.
 */
export async function warmUpByCount({ ops, check, count, collect = null, callTimeoutMs = 30000, signal, clock = () => performance.now() }) {
  const start = clock();
  const timed = Math.max(TIMED_SLICES, Math.floor(count / 4));
  const slice = Math.floor(timed / TIMED_SLICES);
  const run = async (n) => {
    for (let i = 0; i < n; i++) await guard(runCall(ops, 1, check, null, 1), callTimeoutMs, signal);
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
  if (count > 0) await guard(runCall(ops, count, check, null, opsPerCheck), callTimeoutMs, signal);
  return { ops: count * ops.length, msPerOp: count > 0 ? (performance.now() - start) / count : null };
}
