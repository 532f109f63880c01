// Times a driver's operations with benchmark.js, inside the driver's own process: a warm-up that
// sizes the sampled call, an unmeasured lead-in, and measured windows.
//
// benchmark.js's deferred mode costs tens of microseconds per sampled call, so one benchmark.js
// sample is one call that runs a whole sample's worth of operations back to back on each connection:
// ops/s = samples/s x opsPerCall x connections (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads).
import { performance } from 'node:perf_hooks';
import { GaplessBenchmark } from './gapless-benchmark.js';
import { spanMeter } from './allocation-meter.js';
import { LatencyRecorder } from './latency.js';
import { runCall, stallWatch } from './operation-calls.js';
import { leadIn, leadInByCount } from './warm-up-loops.js';
import { windowLead } from '../figures/window-sizing.js';

// One benchmark.js sample per window, and the lead-in is its first cycle: between two samples the
// connection idles while benchmark.js compiles anew, and the operations after the gap run cold
// (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads).

/** This process's CPU time so far, all threads, user + system, in µs. */
export function ownCpuUs() {
  const u = process.cpuUsage();
  return u.user + u.system;
}

// A sample that finishes under minTime is re-run, sized anew from it: a few times at most.
const MAX_CYCLES = 20;
const MAX_NESTED_RESOLVES = 64;

/**
 * The sample's cycle: one call of `opsPerCall` operations, sized as it starts, its span clocked and
 * its CPU time read. A replayed row's lead-in (a number of operations) runs first in the same cycle,
 * so that the measured span starts on its last operation's heels: run before benchmark.js started
 * its cycle, it left benchmark.js's own set-up between the two
 * (docs/history/2026-11-26-replay-timed.md#2026-11-26-later-morning-windows-sized-side-by-side-warm-ups-by-reply-bytes-issue-33).
 */
function sampleCycle(deferred, { windowS, leadOps, ops, check, sized, latencies, watch, state, callTimeoutMs, signal, fail, resolve }) {
  const sample = () => {
    state.opsPerCall = sized.sizer.ops(state.led, windowS);
    state.plannedOpsPerCall ??= state.opsPerCall;
    // The meter's readings (allocation-meter.js) just outside the span: inside benchmark.js's
    // clock, a few µs a window, the rest after it.
    state.meter.start();
    state.span = { t0: performance.now(), cpu0: ownCpuUs() };
    runCall({ ops, count: state.opsPerCall, check, latencies, checkEvery: sized.sizer.opsPerCheck, timeEvery: sized.sizer.opsPerTiming(state.led) }).then(() => {
      state.span.t1 = performance.now();
      state.meter.end();
      resolve(deferred); // first: the bookkeeping below would run inside the clock
      state.opsRun += state.opsPerCall * ops.length;
      sized.msPerOp = (state.span.t1 - state.span.t0) / state.opsPerCall;
      sized.sizer = sized.sizer.after(sized.msPerOp); // a short sample's re-run is sized from it
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

/**
 * The benchmark.js run of one window. Its first cycle is the lead-in, which benchmark.js discards
 * (it runs under minTime, and benchmark.js re-runs a cycle that finishes under minTime, keeping only
 * the re-run); its next cycle is the sample: one call of `opsPerCall` operations, sized when it
 * starts. benchmark.js compiles its test before the first cycle, so the measured cycle follows the
 * lead-in with no gap, where compiling would slow the sample.
 * `leadSeconds` is the lead-in's length, already cut to the window (windowLead). `state` receives the
 * lead-in, the measured span (its clock, and this process's CPU time at its start and end: benchmark.js's
 * own work after the cycle is not the driver's), the operations run, and the first failure.
 */
function windowBenchmark({ name, windowS, leadSeconds, leadOps = 0, ops, check, sized, latencies, watch, state, callTimeoutMs, signal }) {
  const fail = (deferred, err) => {
    state.failure = err;
    deferred.benchmark._original.abort();
    deferred.resolve();
  };
  // The sample's CPU time ends once benchmark.js has stopped its clock, on the cycle's last call
  // (its teardown sets `cycles` back to 0): read inside the clocked span, the reading would count.
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
        // The sample cycle's count is above 1 after the short lead-in cycle: its further calls are
        // empty, inside the clock, and each step runs cold, so they resolve at once, through a
        // microtask only when so many are left that resolving at once would nest too deep
        // (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads).
        if (deferred.benchmark.count - deferred.cycles <= MAX_NESTED_RESOLVES) resolve(deferred);
        else queueMicrotask(() => resolve(deferred));
      } else {
        sampleCycle(deferred, { windowS, leadOps, ops, check, sized, latencies, watch, state, callTimeoutMs, signal, fail, resolve });
      }
    },
  });
}

/**
 * Run the window's benchmark to its end, a stall or an abort. Returns its cycles and the last one's
 * time as benchmark.js clocked it.
 */
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

/**
 * One window: an unmeasured lead-in of `lead` seconds (at most a third of the window), then
 * benchmark.js times one sample of about `windowS` seconds, right after it.
 * The window's length in operations is the sizer's (figures/window-sizing.js); `msPerOp`, the kept
 * sample's time per operation, sizes the next window (sizer.after).
 * @returns {Promise<{opsPerSec, rme, samples, cycles, reruns, samplingSeconds, opsPerCall, plannedOpsPerCall, ops, leadOps, opsRun, sampleOpsPerSec, measuredFrom, measuredTo, cpuUs, msPerOp, meter}>}
 */
export async function sampleWindow({
  ops, check, sizer, windowS, lead = 0, callTimeoutMs = 30000, signal, name = 'bench', latencies = new LatencyRecorder(),
}) {
  const samplingStart = performance.now();
  let state;
  let bench;
  let last;
  let leadSeconds;
  let opsRun = 0;
  // Twice at most: when an operation of the lead-in stalls past minTime, benchmark.js keeps the
  // lead-in's cycle as its sample; the window then runs again, without a lead-in.
  // A replayed row's lead-in is a number of operations, run in the sample's own cycle.
  const fullLead = sizer.fixed ? 0 : windowLead(lead, windowS);
  const leadOps = sizer.leadOps;
  const sized = { sizer, msPerOp: null }; // this window's sizer, and its kept sample's time per operation
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
    cycles: last.cycles, // benchmark.js cycles run: the lead-in's, the sample's, and any re-run of a short sample
    // What the window had to run again: itself without its lead-in (an operation stalled the lead-in
    // past minTime), and samples that finished under minTime.
    reruns: {
      leadInStalled: fullLead > 0 && leadSeconds === 0 ? 1 : 0,
      shortSamples: Math.max(0, last.cycles - (leadSeconds > 0 ? 2 : 1)),
    },
    samplingSeconds: (performance.now() - samplingStart) / 1000,
    opsPerCall,
    // The sample's size as the window planned it from the previous one (a short sample's re-run is sized anew).
    plannedOpsPerCall: state.plannedOpsPerCall,
    ops: opsPerSample, // the kept sample's: its CPU time and GC pauses are counted over it alone
    leadOps: state.led?.ops ?? 0,
    measuredFrom: span.t0,
    measuredTo: span.t1,
    // Every operation the window ran: lead-ins, short samples run again, the kept sample. The
    // server's CPU time, read around the whole window, is counted over these.
    opsRun,
    cpuUs: span.cpu1 - span.cpu0,
    msPerOp: sized.msPerOp,
    // What the kept sample allocated and its system calls: figures() once the GC observer has caught up.
    meter: state.meter,
  };
}
