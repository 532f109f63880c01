// --rate's open schedule (measuring/driver/open-loop.js, rates.js) on a simulated clock: arrivals on time,
// latency from intended starts, lag, skipped and late counts, the parsing of --rate; and --workers' sum of windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrivalGaps, openLoopWindow, seededRandom } from '../../lib/measuring/driver/open-loop.js';
import { summarizeRate } from '../../lib/measuring/figures/rate-figures.js';
import { closedLoopMax, parseLatencyLimit, parseRates, resolveRate } from '../../lib/measuring/run/rate-passes.js';

/** A discrete-event clock: wake-ups and operation completions happen at their simulated times, in order. */
function simulation() {
  let now = 0;
  const events = []; // { at, fn }
  let wake = null;
  const add = (at, fn) => {
    const e = { at, fn };
    events.push(e);
    events.sort((a, b) => a.at - b.at);
    return e;
  };
  return {
    clock: () => now,
    wakeAt(at, fn) {
      if (wake) events.splice(events.indexOf(wake), 1);
      wake = add(Math.max(at, now), () => {
        wake = null;
        fn();
      });
    },
    /** An operation that takes `serviceMs(i)` of simulated time and returns its number. */
    op(serviceMs) {
      let i = 0;
      return () => {
        const n = i++;
        return new Promise((resolve) => add(now + serviceMs(n), () => resolve(n)));
      };
    },
    async run(promise) {
      let done = false;
      promise.then(() => { done = true; }, () => { done = true; });
      while (!done) {
        await new Promise((r) => setImmediate(r));
        if (done) break;
        const e = events.shift();
        if (!e) throw new Error('the window waits for nothing');
        if (e === wake) wake = null;
        now = e.at;
        e.fn();
      }
      return promise;
    },
  };
}

const recorder = () => {
  const values = [];
  return { values, push: (v) => values.push(v) };
};

function window(sim, { callers = 1, serviceMs, rate, schedule = 'uniform', leadMs = 0, measureMs = 100, latencyLimitMs = 0, check = () => {} }) {
  const latencies = recorder();
  const lags = recorder();
  const op = sim.op(serviceMs);
  const promise = openLoopWindow({
    ops: Array.from({ length: callers }, () => op), check, gaps: arrivalGaps(rate, schedule, seededRandom(1)),
    leadMs, measureMs, latencyLimitMs, latencies, lags, clock: sim.clock, wakeAt: sim.wakeAt,
  });
  return sim.run(promise).then((counts) => ({ counts, latencies: latencies.values, lags: lags.values }));
}

test('below capacity every arrival starts on time and its latency is its service time', async () => {
  const sim = simulation();
  const { counts, latencies, lags } = await window(sim, { serviceMs: () => 0.1, rate: 1000, measureMs: 100 });
  assert.equal(counts.scheduled, 100);
  assert.equal(counts.completed, 100);
  assert.equal(counts.skipped, 0);
  assert.ok(lags.every((l) => Math.abs(l) < 1e-6), 'no lag');
  assert.ok(latencies.every((l) => Math.abs(l - 100) < 1e-6), 'latency = service time (100 µs)');
  assert.equal(summarizeRate([{ ...counts, measureSeconds: 0.1 }], 1000).sustained, true);
});

test('a stall counts against every operation that should have started during it (no coordinated omission)', async () => {
  const sim = simulation();
  // One 10 ms stall at the 20th operation; otherwise 0.1 ms each, one caller, an arrival every ms.
  const { latencies, lags } = await window(sim, { serviceMs: (i) => (i === 20 ? 10 : 0.1), rate: 1000, measureMs: 100 });
  const slow = latencies.filter((l) => l > 1000);
  // A closed loop would time one slow operation; from intended starts the ~9 that waited behind it are slow too.
  assert.ok(slow.length >= 9, `${slow.length} operations over 1 ms`);
  assert.ok(Math.max(...lags) > 8000, 'the one right after the stall started about 9 ms late');
});

test('past capacity the backlog grows: lag and latency grow, the window ends behind, and the rate is not sustained', async () => {
  const sim = simulation();
  const { counts, latencies, lags } = await window(sim, { serviceMs: () => 1.2, rate: 1000, measureMs: 100 });
  assert.equal(counts.scheduled, 100);
  assert.ok(counts.behind > 10, `${counts.behind} behind`);
  assert.equal(counts.skipped, 0, 'a backlog of a sixth of a window drains within the next window\'s length');
  assert.equal(counts.completed, counts.scheduled);
  assert.ok(lags.at(-1) > lags[1] && latencies.at(-1) > latencies[1], 'later arrivals wait longer');
  const summary = summarizeRate([{ ...counts, measureSeconds: (counts.measuredTo - counts.measuredFrom) / 1000 }], 1000);
  assert.equal(summary.sustained, false);
  assert.ok(summary.achievedPerSec < 850, `${summary.achievedPerSec} a second done: one caller of 1.2 ms does about 833`);
});

test('far past capacity what still waits a window after the schedule ended is skipped', async () => {
  const sim = simulation();
  const { counts } = await window(sim, { serviceMs: () => 3, rate: 1000, measureMs: 100 });
  assert.ok(counts.skipped > 20, JSON.stringify(counts));
  assert.equal(counts.completed + counts.skipped, counts.scheduled);
  const spanS = (counts.measuredTo - counts.measuredFrom) / 1000;
  assert.ok(summarizeRate([{ ...counts, measureSeconds: spanS }], 1000).achievedPerSec < 340, 'one caller of 3 ms: about 333 a second');
});

test('--latency-limit skips arrivals already later than the limit and counts the late ones', async () => {
  const sim = simulation();
  const { counts, latencies } = await window(sim, { serviceMs: () => 1.5, rate: 1000, measureMs: 100, latencyLimitMs: 3 });
  assert.ok(counts.skipped > 0 && counts.late > 0, JSON.stringify(counts));
  assert.equal(counts.late, latencies.filter((l) => l > 3000).length);
  // Nothing started more than the limit after its intended start.
  assert.ok(Math.max(...latencies) <= 3000 + 1500 + 1e-6);
});

test('the lead-in runs the schedule but counts nothing; several callers share the arrivals', async () => {
  const sim = simulation();
  const { counts } = await window(sim, { callers: 4, serviceMs: () => 3, rate: 1000, leadMs: 20, measureMs: 50 });
  assert.equal(counts.scheduled, 50);
  assert.equal(counts.skipped, 0, 'four callers of 3 ms keep up with one arrival per ms');
});

test('a failed check ends the window with its error', async () => {
  const sim = simulation();
  await assert.rejects(window(sim, { serviceMs: () => 0.1, rate: 1000, check: (n) => { if (n === 5) throw new Error('expected 100, got 101'); } }), /expected 100, got 101/);
});

test('Poisson gaps are seeded and average 1 / rate; uniform ones are exact', () => {
  const a = arrivalGaps(2000, 'poisson', seededRandom(7));
  const b = arrivalGaps(2000, 'poisson', seededRandom(7));
  const xs = Array.from({ length: 20000 }, () => a());
  assert.deepEqual(Array.from({ length: 20000 }, () => b()), xs);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.02, `mean gap ${mean} ms`);
  assert.equal(arrivalGaps(2000, 'uniform')(), 0.5);
  assert.throws(() => arrivalGaps(0), /above 0/);
  assert.throws(() => arrivalGaps(10, 'bursty'), /unknown schedule/);
});

test('--rate takes rates and shares of the closed-loop maximum, and refuses the rest in one line', () => {
  assert.deepEqual(parseRates('2000'), [{ perSec: 2000 }]);
  assert.deepEqual(parseRates('50%, 120%'), [{ pctOfMax: 50 }, { pctOfMax: 120 }]);
  for (const bad of ['0', '-5', 'abc', '', '50%,50%', '%']) assert.throws(() => parseRates(bad), /--rate/);
  assert.throws(() => parseLatencyLimit('0'), /--latency-limit must be milliseconds above 0/);
  const results = { benches: [{ name: 'pool_select', results: [{ ok: true, opsPerSec: 8000 }, { ok: true, opsPerSec: 6000 }, { ok: false }] }] };
  assert.equal(closedLoopMax(results, 'pool_select', 1), 6000, 'the rate every row reached: the slowest row\'s');
  const run = { schedule: 'poisson', latencyLimitMs: null, seed: 1 };
  assert.deepEqual(resolveRate({ pctOfMax: 50 }, run, { results, benchName: 'pool_select', concurrency: 1 }),
    { askedPerSec: 3000, pctOfMax: 50, closedLoopMax: 6000, schedule: 'poisson', latencyLimitMs: null, seed: 1 });
  assert.equal(resolveRate({ pctOfMax: 50 }, run, { results, benchName: 'transfer', concurrency: 1 }), null);
});

test('--workers: windows run at once in several processes add up, a rate\'s counts summed and its percentiles averaged', async () => {
  const { combineWindows } = await import('../../lib/measuring/figures/window-fields.js');
  const part = (n) => ({
    opsPerSec: 1000 * n, samples: 1, ops: 100 * n, opsRun: 110 * n, seconds: [0.11, 0.12][n - 1], cpuUs: 5000 * n, gcMs: n, compileWaitMs: 0,
    reruns: { leadInStalled: 0, shortSamples: n }, workload: { committed: 10 * n, accounts: 1000 },
    rate: { scheduled: 50 * n, started: 50 * n, completed: 50 * n, skipped: n, late: 0, behind: 0, measureSeconds: 0.25, p50Us: 100 * n, p99Us: 1000 * n },
  });
  const w = combineWindows([part(1), part(2)]);
  assert.equal(w.opsPerSec, 3000);
  assert.equal(w.ops, 300);
  assert.equal(w.cpuUs, 15000);
  assert.equal(w.gcMs, 3);
  assert.equal(w.seconds, 0.12);
  assert.deepEqual(w.reruns, { leadInStalled: 0, shortSamples: 3 });
  assert.equal(w.workload.committed, 30);
  assert.equal(w.rate.scheduled, 150);
  assert.equal(w.rate.skipped, 3);
  assert.equal(w.rate.p50Us, 150);
  assert.equal(w.rate.measureSeconds, 0.25);
  assert.equal(combineWindows([{ ...part(1), gcMs: null }, part(2)]).gcMs, null, 'a worker without GC figures: none for the window');
});
