// Times a driver's operations with benchmark.js, inside the driver's own process: a warm-up that
// sizes the sampled call, an unmeasured lead-in, and measured windows.
//
// benchmark.js's deferred mode costs a few microseconds per sampled call, which would be
// several percent of a ~70 us round trip. So one sampled call runs `opsPerCall` operations
// back to back on each connection (sized from the warm-up to last about TARGET_CALL_MS),
// and ops/s = calls/s x opsPerCall x connections. An operation stays exactly what the bench
// defines; only the bookkeeping around it is amortised.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import Benchmark from 'benchmark';
import { LatencyRecorder } from './latency.js';

const TARGET_CALL_MS = 2;
const MAX_OPS_PER_CALL = 512;
// Length of one benchmark.js sample (a cycle of `count` calls): about an eighth of the window,
// between these bounds, so a window holds several samples.
const MIN_SAMPLE_MS = 10;
const MAX_SAMPLE_MS = 100;
const SAMPLES_PER_WINDOW = 8;

// benchmark.js waits on setTimeout(0) between samples: about 1 ms in which the CPU idles, and the
// next sample starts on a cold CPU. Its own lodash (the one it was installed with), given a
// setTimeout that continues on the next turn of the event loop instead, removes that gap.
const lodash = createRequire(createRequire(import.meta.url).resolve('benchmark'))('lodash');
const nextTurn = (fn, ms) => (ms > 0 ? setTimeout(fn, ms) : setImmediate(fn));
const cancelTurn = (id) => { clearTimeout(id); clearImmediate(id); };
const timers = { setTimeout: nextTurn, clearTimeout: cancelTurn };
const GaplessBenchmark = Benchmark.runInContext({ _: lodash.runInContext(timers), ...timers });

export class SampleTimeout extends Error {
  constructor(seconds) {
    super(`no reply within ${seconds} s: the driver or the server hung`);
    this.name = 'SampleTimeout';
  }
}

/** k ops back to back on one connection; the first result is checked (all of them when checkAll). */
async function chain(op, k, check, latencies, checkAll) {
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    const result = await op();
    const t1 = performance.now();
    if (latencies) latencies.push((t1 - t0) * 1000);
    if (checkAll || i === 0) check(result);
  }
}

function runCall(ops, k, check, latencies, checkAll) {
  if (ops.length === 1) return chain(ops[0], k, check, latencies, checkAll);
  return Promise.all(ops.map((op) => chain(op, k, check, latencies, checkAll)));
}

/** Reject after `ms` or when `signal` aborts, whichever comes first. */
function guard(promise, ms, signal) {
  let timer;
  let onAbort;
  const stop = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new SampleTimeout(ms / 1000)), ms);
    if (signal) {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  return Promise.race([promise, stop]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

/**
 * Warm-up: operations back to back for `warmup` seconds (at least 3), every result checked.
 * Returns the sizing of the sampled call: { msPerOp, opsPerCall }.
 */
export async function warmUp({ ops, check, warmup, callTimeoutMs = 30000, signal }) {
  let warmOps = 0;
  const warmStart = performance.now();
  const warmEnd = warmStart + warmup * 1000;
  do {
    await guard(runCall(ops, 1, check, null, true), callTimeoutMs, signal);
    warmOps++;
  } while (performance.now() < warmEnd || warmOps < 3);
  const msPerOp = (performance.now() - warmStart) / warmOps;
  return { msPerOp, opsPerCall: Math.max(1, Math.min(MAX_OPS_PER_CALL, Math.round(TARGET_CALL_MS / msPerOp))) };
}

/**
 * An unmeasured lead-in: sampled calls back to back for `seconds` (each call's first result
 * checked), so a window's measured part starts on a running driver, server and CPU.
 * Returns the number of operations run.
 */
export async function leadIn({ ops, check, sizing, seconds, callTimeoutMs = 30000, signal }) {
  let calls = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await guard(runCall(ops, sizing.opsPerCall, check, null, false), callTimeoutMs, signal);
    calls++;
  }
  return calls * sizing.opsPerCall * ops.length;
}

/**
 * One measured window: benchmark.js samples the operations for `time` seconds.
 * @returns {Promise<{opsPerSec, rme, samples, cycles, samplingSeconds, opsPerCall, ops, sampleOpsPerSec}>}
 */
export async function sampleWindow({
  ops, check, sizing, time, minSamples = 2, callTimeoutMs = 30000, signal, name = 'bench', latencies = new LatencyRecorder(),
}) {
  const { msPerOp, opsPerCall } = sizing;
  // benchmark.js re-runs a cycle that finishes under minTime and keeps only the re-run: with cycles
  // sized near minTime, that throws away the fast cycles and biases ops/s low. So the count per
  // cycle is fixed from the warm-up and minTime sits far below it: every cycle is a sample.
  const callMs = opsPerCall * msPerOp;
  const targetSampleMs = Math.min(MAX_SAMPLE_MS, Math.max(MIN_SAMPLE_MS, (time * 1000) / SAMPLES_PER_WINDOW));
  const callsPerSample = Math.max(1, Math.round(targetSampleMs / callMs));
  const sampleMs = callsPerSample * callMs;

  const recordedBefore = latencies.length;
  let failure = null;
  const bench = new GaplessBenchmark(name, {
    defer: true,
    async: true,
    delay: 0,
    initCount: callsPerSample,
    minTime: sampleMs / 1000 / 4,
    // Our own clock decides when sampling ends (see the cycle listener): benchmark.js's elapsed-time
    // bookkeeping overran the requested time by 40-100 %.
    maxTime: Number.MAX_VALUE,
    minSamples,
    fn(deferred) {
      if (failure) {
        deferred.resolve();
        return;
      }
      guard(runCall(ops, opsPerCall, check, latencies, false), callTimeoutMs, signal).then(
        () => deferred.resolve(),
        (err) => {
          failure = err;
          deferred.benchmark._original.abort();
          deferred.resolve();
        },
      );
    },
  });
  const samplingStart = performance.now();
  let cycles = 0;
  // Runs before benchmark.js decides whether to take another sample.
  bench.on('cycle', () => {
    cycles++;
    if (performance.now() - samplingStart >= time * 1000) bench.maxTime = 0;
  });
  await new Promise((resolve) => {
    bench.on('complete', resolve);
    bench.on('abort', resolve);
    bench.run();
  });
  if (failure) throw failure;
  if (bench.error) throw bench.error;
  const opsPerSample = opsPerCall * ops.length;
  return {
    opsPerSec: bench.hz * opsPerSample,
    // Each benchmark.js sample is the mean time of one call: as ops/s.
    sampleOpsPerSec: bench.stats.sample.map((period) => opsPerSample / period),
    rme: bench.stats.rme,
    samples: bench.stats.sample.length,
    cycles, // benchmark.js cycles run; equal to samples unless one was discarded for finishing early
    samplingSeconds: (performance.now() - samplingStart) / 1000,
    opsPerCall,
    ops: latencies.length - recordedBefore,
  };
}

/** Warm-up then one measured window of `time` seconds (one cell measured in one piece). */
export async function measure({ ops, check, time, warmup, minSamples = 5, callTimeoutMs = 30000, signal, name, latencies }) {
  const sizing = await warmUp({ ops, check, warmup, callTimeoutMs, signal });
  return sampleWindow({ ops, check, sizing, time, minSamples, callTimeoutMs, signal, name, latencies });
}

/**
 * A bare loop, for `calibrate`: the operation awaited back to back for `seconds`, nothing else
 * (no benchmark.js, no check, no latency recording). Returns { opsPerSec, ops, seconds }.
 */
export async function bareLoop(op, seconds) {
  const start = performance.now();
  const end = start + seconds * 1000;
  let n = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 32; i++) await op();
    n += 32;
    now = performance.now();
  }
  const elapsed = (now - start) / 1000;
  return { opsPerSec: n / elapsed, ops: n, seconds: elapsed };
}
