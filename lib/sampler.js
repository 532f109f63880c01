// Measures one bench x driver cell: warm-up, then sampling with benchmark.js.
//
// benchmark.js's deferred mode costs a few microseconds per sampled call, which would be
// several percent of a ~70 us round trip. So one sampled call runs `opsPerCall` operations
// back to back on each connection (sized from the warm-up to last about TARGET_CALL_MS),
// and ops/s = calls/s x opsPerCall x connections. An operation stays exactly what the bench
// defines; only the bookkeeping around it is amortised.
import Benchmark from 'benchmark';
import { performance } from 'node:perf_hooks';
import { LatencyRecorder } from './latency.js';

const TARGET_CALL_MS = 2;
const MAX_OPS_PER_CALL = 512;
// Length of one benchmark.js sample (a cycle of `count` calls), sized from the warm-up.
const TARGET_SAMPLE_MS = 100;

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

/** Reject after `ms` or when `signal` aborts, whichever comes first; `settle` must be awaited or raced. */
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
 * @param {object} p
 * @param {Array<() => Promise>} p.ops one operation function per connection
 * @param {(result) => void} p.check throws when the result is wrong
 * @param {number} p.time sampling time in seconds
 * @param {number} p.warmup warm-up time in seconds (every result checked)
 * @param {number} [p.minSamples]
 * @param {number} [p.callTimeoutMs] a sampled call taking longer fails the cell
 * @param {AbortSignal} [p.signal]
 * @param {LatencyRecorder} [p.latencies] where single-operation latencies (us) are appended
 * @returns {Promise<{opsPerSec, rme, samples, cycles, samplingSeconds, opsPerCall, ops, sampleOpsPerSec}>}
 */
export async function measure({ ops, check, time, warmup, minSamples = 5, callTimeoutMs = 30000, signal, name = 'bench', latencies = new LatencyRecorder() }) {
  // Warm-up: every result checked; also sizes the sampled call.
  let warmOps = 0;
  const warmStart = performance.now();
  const warmEnd = warmStart + warmup * 1000;
  do {
    await guard(runCall(ops, 1, check, null, true), callTimeoutMs, signal);
    warmOps++;
  } while (performance.now() < warmEnd || warmOps < 3);
  const msPerOp = (performance.now() - warmStart) / warmOps;
  const opsPerCall = Math.max(1, Math.min(MAX_OPS_PER_CALL, Math.round(TARGET_CALL_MS / msPerOp)));
  // benchmark.js re-runs a cycle that finishes under minTime and keeps only the re-run: with cycles
  // sized near minTime, that throws away the fast cycles and biases ops/s low. So the count per
  // cycle is fixed from the warm-up and minTime sits far below it: every cycle is a sample.
  const callMs = opsPerCall * msPerOp;
  const callsPerSample = Math.max(1, Math.round(TARGET_SAMPLE_MS / callMs));
  const sampleMs = callsPerSample * callMs;

  const recordedBefore = latencies.length;
  let failure = null;
  const bench = new Benchmark(name, {
    defer: true,
    async: true,
    // benchmark.js idles between samples (5 ms by default); after an idle gap the first operations
    // run on a cold CPU inside the next timed sample. A shorter gap and longer samples shrink that.
    delay: 0,
    initCount: callsPerSample,
    minTime: sampleMs / 1000 / 4,
    // Our own clock decides when sampling ends (see the cycle listener): benchmark.js's elapsed-time
    // bookkeeping overran --time by 40-100 %.
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
  // Runs before benchmark.js decides whether to take another sample.
  let cycles = 0;
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
  const callsPerSec = bench.hz;
  const opsPerSample = opsPerCall * ops.length;
  return {
    opsPerSec: callsPerSec * opsPerSample,
    // Each benchmark.js sample is the mean time of one call: as ops/s, for significance tests.
    sampleOpsPerSec: bench.stats.sample.map((period) => opsPerSample / period),
    rme: bench.stats.rme,
    samples: bench.stats.sample.length,
    cycles, // benchmark.js cycles run; equal to samples unless one was discarded for finishing early
    samplingSeconds: (performance.now() - samplingStart) / 1000,
    opsPerCall,
    ops: latencies.length - recordedBefore,
  };
}
