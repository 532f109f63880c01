// The sampler around benchmark.js, with an operation that needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { sampleWindow } from '../../lib/measuring/driver/sampler.js';
import { bareLoop } from '../../lib/measuring/driver/bare-window.js';
import { fixedWindowSizing, windowSizer } from '../../lib/measuring/figures/window-sizing.js';
import { settled, warmUp, warmUpByCount } from '../../lib/measuring/driver/warm-up-loops.js';
import { collectionPoint } from '../../lib/measuring/figures/warm-up-lengths.js';
import { LatencyRecorder } from '../../lib/measuring/driver/latency.js';
import { recordedValues } from '../../lib/measuring/figures/histograms.js';
import { spinFor } from '../../lib/common/timers.js';

/** How many of a recorder's latencies were over `us`. */
const countAbove = (latencies, us) => recordedValues(latencies.histogram).filter(([ns]) => ns > us * 1000).reduce((n, [, c]) => n + c, 0);

// About 1 ms each (a timer's minimum), steady from the first call, like a round trip to a server.
const tick = () => new Promise((resolve) => setTimeout(() => resolve('ok'), 0));

test('a window is one benchmark.js sample, kept, of about the requested time, after a lead-in', async () => {
  const checked = [];
  const ops = [tick];
  const check = (r) => checked.push(r);
  const sizing = await warmUp({ ops, check, warmup: 0.1 });
  const m = await sampleWindow({ ops, check, sizer: windowSizer(sizing), windowS: 0.2, lead: 0.05 });
  // The lead-in's cycle, which benchmark.js discards, then the sample's (re-run if it finished early).
  // A host that stalls this process past minTime during the lead-in makes the window run again
  // without one (its own test below): then the kept window has no lead-in cycle.
  const leadCycles = m.reruns.leadInStalled ? 0 : 1;
  assert.ok(m.cycles >= leadCycles + 1, `${m.cycles} cycles`);
  assert.equal(m.reruns.shortSamples, m.cycles - leadCycles - 1, 'every cycle past the lead-in\'s and the sample\'s was a re-run');
  assert.equal(m.samples, 1, 'one sample kept');
  // The sample is sized from the lead-in's time per operation: on a busy host its length can be off
  // several-fold either way, so only its order of magnitude is checked.
  const measured = (m.measuredTo - m.measuredFrom) / 1000;
  assert.ok(measured > 0.01 && measured < 5, `measured for ${measured} s`);
  assert.equal(m.leadOps >= 1, leadCycles === 1, 'the lead-in ran, unless the window ran again without it');
  assert.ok(m.cpuUs >= 0 && Number.isFinite(m.cpuUs));
  assert.ok(m.opsRun >= m.ops + m.leadOps, `the window ran ${m.opsRun} operations, its lead-in and sample ${m.ops + m.leadOps}`);
  assert.equal(m.sampleOpsPerSec.length, m.samples);
  assert.ok(m.opsPerSec > 0 && Number.isFinite(m.rme));
  // benchmark.js's clock of the sample, against the harness's own clock of the same operations.
  const spanOpsPerSec = m.opsPerCall / measured;
  assert.ok(m.opsPerSec <= spanOpsPerSec && m.opsPerSec > 0.9 * spanOpsPerSec, `${m.opsPerSec} against ${spanOpsPerSec}`);
  assert.ok(checked.length > 0 && checked.every((r) => r === 'ok'), 'results were checked');
});

test('no lead-in operation is in flight when the measured part starts; the next window is sized from this one', async () => {
  const spans = [];
  const op = () => {
    const span = [performance.now(), null];
    spans.push(span);
    return tick().then((r) => { span[1] = performance.now(); return r; });
  };
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.05 });
  const sizer = windowSizer(sizing);
  const m = await sampleWindow({ ops: [op], check: () => {}, sizer, windowS: 0.1, lead: 0.03 });
  const before = spans.filter(([start]) => start < m.measuredFrom);
  assert.ok(before.length >= m.leadOps, 'the lead-in ran');
  assert.ok(before.every(([, end]) => end <= m.measuredFrom), 'an operation of the lead-in was timed in the window');
  assert.ok(Math.abs(m.msPerOp - (m.measuredTo - m.measuredFrom) / m.opsPerCall) < 1e-9);
  const next = await sampleWindow({ ops: [op], check: () => {}, sizer: sizer.after(m.msPerOp), windowS: 0.1, lead: 0.03 });
  // Planned, that is: a stall of the host in this window can make the next one's sample short, and
  // its re-run is sized anew.
  assert.equal(next.plannedOpsPerCall, Math.max(1, Math.round(100 / ((m.measuredTo - m.measuredFrom) / m.opsPerCall))));
  assert.ok(next.reruns.shortSamples > 0 || next.opsPerCall === next.plannedOpsPerCall);
});

test('a lead-in that stalls past benchmark.js\'s minTime is not taken as the sample: the window runs again without one', async () => {
  let calls = null;
  // The second call of the lead-in takes 150 ms: the lead-in's cycle outlasts minTime (half of 0.2 s).
  const op = () => (calls !== null && ++calls === 2 ? new Promise((resolve) => setTimeout(() => resolve('ok'), 150)) : tick());
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.001 });
  calls = 0;
  const m = await sampleWindow({ ops: [op], check: () => {}, sizer: windowSizer(sizing), windowS: 0.2, lead: 0.05 });
  assert.equal(m.samples, 1);
  assert.equal(m.leadOps, 0, 'the window that counted ran no lead-in');
  assert.equal(m.reruns.leadInStalled, 1, 'the results say the window ran again');
  assert.ok(m.opsRun >= m.ops + 2, 'the stalled lead-in\'s operations count among those the window ran');
  assert.ok(m.opsPerCall > 1 && m.ops === m.opsPerCall, 'the sample is the measured call, not the lead-in');
});

test('a sample that finishes under minTime is run again, sized from itself', async () => {
  // 1 ms operations taken for 200 ms ones: the first sample (5 operations) finishes far under
  // minTime (0.5 s), unless the host stalls this process for half a second.
  const sizer = windowSizer({ msPerOp: 200, opsPerCheck: 1, lastMsPerOp: 200 });
  const latencies = new LatencyRecorder();
  const m = await sampleWindow({ ops: [tick], check: () => {}, sizer, windowS: 1, lead: 0.01, latencies });
  assert.ok(m.cycles >= 3, `${m.cycles} cycles: lead-in, short sample, re-run`);
  assert.ok(m.reruns.shortSamples >= 1 && m.reruns.leadInStalled === 0, JSON.stringify(m.reruns));
  assert.equal(m.ops, m.opsPerCall, 'the kept sample\'s operations, over which its CPU time is counted');
  assert.ok(latencies.operations > m.ops, 'the short sample\'s operations count too');
  assert.equal(latencies.length, latencies.operations, 'operations of about 1 ms: every one timed');
  assert.equal(m.opsRun, m.leadOps + latencies.operations, 'the window ran its lead-in, the short sample and the kept one');
  assert.ok(Number.isFinite(m.cpuUs) && m.cpuUs >= 0, 'the kept sample\'s CPU time');
  assert.ok(m.opsPerCall > 5, `the re-run was sized anew: ${m.opsPerCall} operations`);
  assert.equal(m.plannedOpsPerCall, 5);
  assert.ok((m.measuredTo - m.measuredFrom) / 1000 >= 0.5, 'the kept sample lasted at least minTime');
});

test('a latency is the operation\'s own time: a check between two operations is in neither', async () => {
  // Every other result checked, each check a 10 ms busy-wait, each operation about 1 ms: were the
  // checks in the latencies, half of them would be over 8 ms.
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  let checks = 0;
  const check = () => { checks++; busy(10); };
  const sizer = windowSizer({ msPerOp: 1, opsPerCheck: 2, lastMsPerOp: 1 });
  const latencies = new LatencyRecorder();
  const m = await sampleWindow({ ops: [tick], check, sizer, windowS: 0.1, lead: 0, latencies });
  const slow = countAbove(latencies, 8000);
  assert.equal(latencies.length, m.opsRun, 'operations of about 1 ms: one latency per operation');
  assert.ok(checks >= latencies.length / 2 - 1, `${checks} checks of ${latencies.length} operations`);
  // Were the checks in them, every checked operation's latency would be over 8 ms (slow >= checks);
  // half that leaves room for a busy host's scheduling delays (this failed at a load of 8 on 2 CPUs).
  assert.ok(slow < checks / 2, `${slow} latencies over 8 ms, ${checks} checks`);
});

test('fast operations: about one per ms of operations is timed, the rest counted; a check is in no latency', async () => {
  // Operations of a few microseconds, each a microtask (as a reply already in the buffer would be),
  // timed one in four; every eighth result checked with a 2 ms busy-wait.
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  const op = () => Promise.resolve('ok');
  let checks = 0;
  const check = () => { checks++; busy(2); };
  const sizer = windowSizer({ msPerOp: 0.004, opsPerCheck: 8, lastMsPerOp: 0.25 }); // planned: one in four timed
  const latencies = new LatencyRecorder();
  const m = await sampleWindow({ ops: [op], check, sizer, windowS: 0.1, lead: 0, latencies });
  assert.equal(latencies.operations, m.opsRun, 'every operation of the window counted');
  const expected = latencies.operations / 4;
  assert.ok(Math.abs(latencies.length - expected) <= m.cycles, `${latencies.length} latencies of ${latencies.operations} operations`);
  const slow = countAbove(latencies, 1500);
  assert.ok(checks > 0 && slow < checks / 5, `${slow} latencies over 1.5 ms, ${checks} checks`);
});

test('a window is sized by the previous window, else the lead-in, else the warm-up', () => {
  assert.equal(windowSizer({ msPerOp: 4 }).after(0.5).ops({ msPerOp: 2 }, 0.02), 40);
  assert.equal(windowSizer({ msPerOp: 4 }).ops({ msPerOp: 2 }, 0.02), 10);
  assert.equal(windowSizer({ msPerOp: 4 }).ops({ msPerOp: null }, 0.02), 5);
  assert.equal(windowSizer({ msPerOp: 400 }).ops(null, 0.02), 1, 'at least one operation');
  const sizer = windowSizer({ msPerOp: 4, opsPerCheck: 3 });
  assert.notEqual(sizer.after(0.5), sizer, 'a new sizer for the next window; the first is unchanged');
  assert.equal(sizer.ops(null, 0.02), 5);
  assert.equal(sizer.after(0.5).opsPerCheck, 3);
});

test('about one operation per ms is timed, planned as the window is, at most one in 64', () => {
  assert.equal(windowSizer({ msPerOp: 0.5, lastMsPerOp: 0.1 }).opsPerTiming({ msPerOp: 0.2 }), 10);
  assert.equal(windowSizer({ msPerOp: 0.5 }).opsPerTiming({ msPerOp: 0.2 }), 5);
  assert.equal(windowSizer({ msPerOp: 0.5 }).opsPerTiming(null), 2);
  assert.equal(windowSizer({ msPerOp: 3 }).opsPerTiming(null), 1, 'every operation of a ms or more');
  assert.equal(windowSizer({ msPerOp: 0.001 }).opsPerTiming(null), 64);
});

test("calibrate's bare loop runs exactly the operations it is given, so its windows are as long as the harness's", async () => {
  let calls = 0;
  const m = await bareLoop(() => { calls++; return tick(); }, 7);
  assert.equal(calls, 7);
  assert.equal(m.ops, 7);
  assert.ok(Math.abs(m.opsPerSec - 7 / m.seconds) < 1e-9 && m.seconds > 0);
});

test('a failing check fails the measurement instead of producing a figure', async () => {
  let calls = 0;
  const check = () => { if (++calls > 15) throw new Error('row 1: expected 1, got 2'); };
  await assert.rejects((async () => {
    const sizing = await warmUp({ ops: [tick], check, warmup: 0.01 });
    return sampleWindow({ ops: [tick], check, sizer: windowSizer(sizing), windowS: 0.3 });
  })(), /expected 1, got 2/);
});

test('a row says how often its windows ran again: without their lead-in, or after a short sample', async () => {
  const { summarizeWindows } = await import('../../lib/measuring/figures/row-figures.js');
  const w = (reruns) => ({ round: 0, process: 0, opsPerSec: 1000, samples: 1, ops: 20, cpuUs: 100, gcMs: 0, serverCpuUs: 50, reruns });
  const row = summarizeWindows([w({ leadInStalled: 1, shortSamples: 0 }), w({ leadInStalled: 0, shortSamples: 2 }), w(null)]);
  assert.deepEqual(row.windowReruns, { leadInStalled: 1, shortSamples: 2 }, 'bare-loop windows (null) count nothing');
});

test('the server\'s CPU time, read around a whole window, is counted over every operation the window ran', async () => {
  const { summarizeWindows } = await import('../../lib/measuring/figures/row-figures.js');
  const w = (opsRun) => ({ round: 0, process: 0, opsPerSec: 1000, samples: 1, ops: 20, cpuUs: 100, gcMs: 0, serverCpuUs: 300, opsRun });
  // A window that ran a short sample again (opsRun 30), and one that did not (lead-in and sample: 25).
  assert.equal(summarizeWindows([w(30), w(25)]).cost.serverCpuUsPerOp, 10.9, '600 µs over 55 operations');
  assert.equal(summarizeWindows([w(30)]).cost.clientCpuUsPerOp, 5, 'the client\'s over the kept sample alone');
});

test('a warm-up has settled once the last three batches do not beat the best before them by over 3 %', () => {
  assert.equal(settled([5, 5, 5]), false, 'three batches: nothing before them to beat');
  assert.equal(settled([10, 5, 5.1, 4.95, 5.2]), true, 'within 3 % of the best before');
  assert.equal(settled([10, 5, 5.1, 4.8, 5.2]), false, '4.8 beats 5 by 4 %');
  assert.equal(settled([10, 8, 6, 5, 4]), false, 'still getting faster');
  assert.equal(settled([4, 9, 9, 9]), true, 'slower batches (a stalled host) do not hold it back');
});

// An operation whose time, `ms(time so far)` milliseconds, passes on a clock of its own, so that
// what the warm-up sees does not depend on how busy this machine is.
function onOwnClock(ms) {
  let now = 0;
  return { clock: () => now, op: async () => { now += ms(now); return 'ok'; } };
}

test('a warm-up runs past its minimum while the operation keeps getting faster, and stops when it stops', async () => {
  // 3 ms per operation, 0.4 ms less every 20 ms, down to 0.2 ms after 140 ms.
  const { clock, op } = onOwnClock((t) => Math.max(0.2, 3 - (t / 20) * 0.4));
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.02, clock });
  assert.ok(sizing.seconds >= 0.14, `warmed up for ${sizing.seconds} s`);
  assert.ok(sizing.seconds < 0.3, `stopped once settled (four batches of 15 ms after 140 ms), not at the limit: ${sizing.seconds} s`);
  assert.ok(Math.abs(sizing.msPerOp - 0.2) < 1e-9, `sized from the settled speed: ${sizing.msPerOp} ms`);
});

test('a warm-up that never settles stops at its limit', async () => {
  // 18 % faster every 15 ms, without end.
  const { clock, op } = onOwnClock((t) => 2 * Math.exp(-t / 75));
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.02, maxSeconds: 0.3, clock });
  assert.ok(sizing.seconds >= 0.3 && sizing.seconds < 0.32, `${sizing.seconds} s`);
});

test('a warm-up asked to run as given stops at its length, settled or not', async () => {
  const { clock, op } = onOwnClock((t) => 2 * Math.exp(-t / 75));
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.05, settle: false, clock });
  assert.ok(sizing.seconds >= 0.05 && sizing.seconds < 0.07, `${sizing.seconds} s`);
});

test('a warm-up waits for the compiles V8 has queued, then settles again on the faster code', async () => {
  // 1 ms per operation until the compile is in, 0.5 ms after.
  let compiled = false;
  const { clock, op } = onOwnClock(() => (compiled ? 0.5 : 1));
  const waits = [];
  const awaitJit = () => {
    const waited = compiled ? 0.01 : 2500;
    compiled = true;
    waits.push(waited);
    return waited;
  };
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.05, clock, awaitJit });
  assert.deepEqual(waits, [2500, 0.01], 'waited once, then found nothing queued');
  assert.equal(sizing.compileWaitSeconds, 2.5);
  assert.ok(Math.abs(sizing.msPerOp - 0.5) < 1e-9, `sized from the compiled code's speed: ${sizing.msPerOp} ms`);
});

test('a warm-up that finds no compile queued runs no more operations', async () => {
  let calls = 0;
  let callsAtWait = null;
  const { clock, op } = onOwnClock(() => { calls++; return 1; });
  const awaitJit = () => { callsAtWait = calls; return 0.2; };
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.05, settle: false, clock, awaitJit });
  assert.equal(sizing.compileWaitSeconds, 0);
  assert.ok(sizing.seconds >= 0.05 && sizing.seconds < 0.07, `${sizing.seconds} s`);
  assert.equal(calls, callsAtWait);
});

test('a warm-up waits for compiles a few times at most', async () => {
  const { clock, op } = onOwnClock(() => 1);
  let waits = 0;
  const sizing = await warmUp({ ops: [op], check: () => {}, warmup: 0.02, clock, awaitJit: () => { waits++; return 5; } });
  assert.equal(waits, 4);
  assert.equal(sizing.compileWaitSeconds, 0.02);
});

// --replay: a row's processes warm up for a number of operations and run windows of a fixed number.
test('a replayed warm-up runs exactly its operations, each checked, and times its last quarter', async () => {
  let calls = 0;
  const checked = [];
  const op = async () => { calls++; return calls; };
  let now = 0;
  const clock = () => (now += 0.5); // every reading half a millisecond on
  const sizing = await warmUpByCount({ ops: [op], check: (r) => checked.push(r), count: 400, clock });
  assert.equal(calls, 400);
  assert.equal(checked.length, 400, 'every warm-up result is checked');
  assert.ok(sizing.msPerOp > 0 && sizing.opsPerCheck >= 1);
  assert.equal(sizing.compileWaitSeconds, 0);
});

test('a replayed warm-up given a collection collects once, after its first sixteenth', async () => {
  let calls = 0;
  const collectedAt = [];
  const op = async () => { calls++; return calls; };
  let now = 0;
  const clock = () => (now += 0.5);
  const sizing = await warmUpByCount({ ops: [op], check: () => {}, count: 400, collect: () => collectedAt.push(calls), clock });
  assert.equal(calls, 400, 'the collection adds no operations');
  assert.deepEqual(collectedAt, [25]);
  assert.equal(collectionPoint(400), 25);
  assert.equal(collectionPoint(4096), 256);
  assert.equal(sizing.count, 400);
});

test("a replayed row's window is sized once, in operations, as a window of its time would be", () => {
  const sizing = fixedWindowSizing(0.0238, { windowS: 0.019, lead: 0.005 });
  assert.deepEqual(sizing, { ops: 798, leadOps: 210, opsPerCheck: 420, opsPerTiming: 42 });
  assert.equal(sizing.ops, windowSizer({ msPerOp: 0.0238 }).ops(null, 0.019));
  // Slow operations: at least one of each; no lead-in when none is asked.
  assert.deepEqual(fixedWindowSizing(50, { windowS: 0.019, lead: 0 }), { ops: 1, leadOps: 0, opsPerCheck: 1, opsPerTiming: 1 });
});

test("a replayed warm-up's time per operation is its last quarter's median slice: one stall does not size the windows", async () => {
  let calls = 0;
  let now = 0;
  // Each operation takes 0.01 ms, but one slice of the last quarter stalls for 50 ms.
  const clock = () => now;
  const slow = async () => { calls++; now += calls === 350 ? 50 : 0.01; return 'ok'; };
  const sizing = await warmUpByCount({ ops: [slow], check: () => {}, count: 400, clock });
  assert.equal(calls, 400);
  assert.ok(Math.abs(sizing.msPerOp - 0.01) < 1e-9, `${sizing.msPerOp}`);
});

test('a fixed window runs exactly its operations after its lead-in, whatever the window time', async () => {
  let calls = 0;
  // 8 µs each: a window of a few ms (benchmark.js takes a sample of under 1 ms, on its millisecond clock, again).
  const op = async () => { calls++; spinFor(0.008); return 'ok'; };
  const fixed = { ops: 256, leadOps: 64, opsPerCheck: 16, opsPerTiming: 8 };
  const sizer = windowSizer({ msPerOp: 0.008, opsPerCheck: 16, fixed });
  assert.equal(sizer.ops(null, 10), 256, 'the window time does not size it');
  assert.equal(sizer.opsPerTiming(null), 8);
  assert.equal(sizer.after(0.5), sizer, 'the same for every window');
  const latencies = new LatencyRecorder();
  const m = await sampleWindow({ ops: [op], check: () => {}, sizer, windowS: 10, lead: 1, latencies });
  assert.equal(m.ops, 256);
  assert.equal(m.cycles, 1, 'not run again for finishing under the window time');
  assert.equal(m.samples, 1);
  assert.equal(calls, 256 + 64);
  assert.equal(m.opsRun, 256 + 64);
});
