// Times a driver's operations with benchmark.js in the driver's own process. Deferred mode costs tens
// of µs per call, so one sample is one call of a whole sample's operations on each connection
// (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads).
import { performance } from 'node:perf_hooks';
import { GaplessBenchmark } from './gapless-benchmark.js';
import { spanMeter } from './allocation-meter.js';
import { LatencyRecorder } from './latency.js';
import { runCall, stallWatch } from './operation-calls.js';
import { leadIn, leadInByCount } from './warm-up-loops.js';
import { windowLead } from '../figures/window-sizing.js';

/** This process's CPU time so far, all threads, user + system, in µs. */
export function ownCpuUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

// benchmark.js re-runs a sample that finishes under minTime: a few times at most.
const MAX_CYCLES = 20;
const MAX_NESTED_RESOLVES = 64;

// A replayed row's lead-in runs in the sample's own cycle, so no benchmark.js set-up sits between it and the span
// (docs/history/2026-11-26-replay-timed.md#2026-11-26-later-morning-windows-sized-side-by-side-warm-ups-by-reply-bytes-issue-33).
function sampleCycle(deferred, { windowS, leadOps, ops, check, sized, latencies, watch, state, callTimeoutMs, signal, fail, resolve }) {
  const sample = () => {
    state.opsPerCall = sized.sizer.ops(state.led, windowS);
    state.plannedOpsPerCall ??= state.opsPerCall;
    // The meter reads just outside the span (allocation-meter.js).
    state.meter.start();
    state.span = { t0: performance.now(), cpu0: ownCpuUs() };
    runCall({ ops, count: state.opsPerCall, check, latencies, checkEvery: sized.sizer.opsPerCheck, timeEvery: sized.sizer.opsPerTiming(state.led) }).then(() => {
      state.span.t1 = performance.now();
      state.meter.end();
      resolve(deferred); // first: the bookkeeping below would run inside the clock
      state.opsRun += state.opsPerCall * ops.length;
      sized.msPerOp = (state.span.t1 - state.span.t0) / state.opsPerCall;
      sized.sizer = sized.sizer.after(sized.msPerOp);
      watch.progress();
    }, (err) => fail(deferred, err));
  };
  if (!(leadOps > 0)) {
    sample();
    return;
  }
  leadInByCount({ ops, check, count: leadOps, opsPerCheck: sized.sizer.opsPerCheck, callTimeoutMs, signal }).then((led) => {
    state.led = led;
    state.opsRun += led.ops;
    sample();
  }, (err) => fail(deferred, err));
}

// One window, one benchmark.js run: the lead-in is its first cycle (under minTime, so discarded), the
// sample its next, as between two samples benchmark.js compiles anew and the operations after run cold.
function windowBenchmark({ name, windowS, leadSeconds, leadOps = 0, ops, check, sized, latencies, watch, state, callTimeoutMs, signal }) {
  const fail = (deferred, err) => {
    state.failure = err;
    deferred.benchmark._original.abort();
    deferred.resolve();
  };
  // CPU time is read after benchmark.js stopped its clock (teardown sets `cycles` to 0), not inside it.
  const resolve = (deferred) => {
    deferred.resolve();
    if (state.span?.t1 !== undefined && state.span.cpu1 === undefined && deferred.cycles === 0) {
      state.span.cpu1 = ownCpuUs();
      state.meter.afterClock();
    }
  };
  return new GaplessBenchmark(name, {
    defer: true,
    async: true,
    delay: 0,
    initCount: 1,
    // A fixed window (a replayed row's) is kept however short: benchmark.js runs a cycle under minTime again.
    minTime: sized.sizer.fixed ? Number.MIN_VALUE : windowS / 2,
    maxTime: 0, // one sample
    minSamples: 1,
    fn(deferred) {
      if (state.failure) {
        deferred.resolve();
      } else if (deferred.benchmark.cycles > MAX_CYCLES) {
        fail(deferred, new Error(`a window of ${state.opsPerCall} operations kept finishing in under ${windowS / 2} s`));
      } else if (leadSeconds > 0 && deferred.benchmark.cycles === 0) {
        leadIn({ ops, check, seconds: leadSeconds, callTimeoutMs, signal }).then((led) => {
          state.led = led;
          state.opsRun += led.ops;
          watch.progress();
          deferred.resolve();
        }, (err) => fail(deferred, err));
      } else if (deferred.cycles > 0) {
        // The sample cycle's further calls are empty and inside the clock: resolved at once, through
        // a microtask only when so many are left that they would nest too deep.
        if (deferred.benchmark.count - deferred.cycles <= MAX_NESTED_RESOLVES) resolve(deferred);
        else queueMicrotask(() => resolve(deferred));
      } else {
        sampleCycle(deferred, { windowS, leadOps, ops, check, sized, latencies, watch, state, callTimeoutMs, signal, fail, resolve });
      }
    },
  });
}

async function runWindow(bench, { watch, state }) {
  const last = { cycles: 0, clocked: null };
  bench.on('cycle', (event) => {
    last.cycles++;
    last.clocked = event.target.times.cycle;
  });
  const done = new Promise((resolve) => {
    bench.on('complete', resolve);
    bench.on('abort', resolve);
    bench.run();
  });
  try {
    await Promise.race([done, watch.failed]);
  } catch (err) {
    state.failure ??= err;
    bench.abort();
  } finally {
    watch.stop();
  }
  return last;
}

/** An unmeasured lead-in, then one sample of about `windowS` seconds; `msPerOp` sizes the next window. */
export async function sampleWindow({
  ops, check, sizer, windowS, lead = 0, callTimeoutMs = 30000, signal, name = 'bench', latencies = new LatencyRecorder(),
}) {
  const samplingStart = performance.now();
  let state;
  let bench;
  let last;
  let leadSeconds;
  let opsRun = 0;
  // Twice at most: when the lead-in stalls past minTime, benchmark.js keeps it as its sample; the
  // window then runs again, without a lead-in.
  const fullLead = sizer.fixed ? 0 : windowLead(lead, windowS);
  const leadOps = sizer.leadOps;
  const sized = { sizer, msPerOp: null };
  for (leadSeconds of fullLead > 0 ? [fullLead, 0] : [0]) {
    const watch = stallWatch(callTimeoutMs, signal);
    state = { failure: null, led: null, span: null, opsPerCall: 0, plannedOpsPerCall: null, opsRun: 0, meter: spanMeter() };
    bench = windowBenchmark({ name, windowS, leadSeconds, leadOps, ops, check, sized, latencies, watch, state, callTimeoutMs, signal });
    last = await runWindow(bench, { watch, state });
    state.meter.close();
    if (state.failure) throw state.failure;
    if (bench.error) throw bench.error;
    opsRun += state.opsRun;
    if (state.span?.t1 !== undefined) break;
  }
  const { span, opsPerCall } = state;
  const opsPerSample = opsPerCall * ops.length;
  // benchmark.js's clock of the kept cycle (its period is that time over the cycle's count of calls);
  // a replayed row's cycle also holds its lead-in, so its sample is clocked by the measured span.
  const opsPerSec = sizer.fixed ? opsPerSample / ((span.t1 - span.t0) / 1000) : opsPerSample / last.clocked;
  return {
    opsPerSec,
    sampleOpsPerSec: [opsPerSec],
    rme: bench.stats.rme,
    samples: bench.stats.sample.length,
    cycles: last.cycles,
    reruns: {
      leadInStalled: fullLead > 0 && leadSeconds === 0 ? 1 : 0,
      shortSamples: Math.max(0, last.cycles - (leadSeconds > 0 ? 2 : 1)),
    },
    samplingSeconds: (performance.now() - samplingStart) / 1000,
    opsPerCall,
    plannedOpsPerCall: state.plannedOpsPerCall,
    ops: opsPerSample, // the kept sample's: its CPU time and GC pauses are counted over it alone
    leadOps: state.led?.ops ?? 0,
    measuredFrom: span.t0,
    measuredTo: span.t1,
    // Every operation run: the server's CPU time, read around the whole window, is counted over these.
    opsRun,
    cpuUs: span.cpu1 - span.cpu0,
    msPerOp: sized.msPerOp,
    // figures() once the GC observer has caught up.
    meter: state.meter,
  };
}
