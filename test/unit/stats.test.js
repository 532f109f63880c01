import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mean, sum, variance, median, percentileOfSorted, nearestRankOfSorted, relativeMarginOfError, latencySummary, deltaPct, logRatioPct, tCritical95, medianConfidenceInterval, normalQuantile } from '../../lib/common/stats.js';
import { rowKey, splitRowKey } from '../../lib/common/row-key.js';
import { eachIntervalLevel, pairedDelta, betweenProcessVariance, pairedDrift } from '../../lib/measuring/figures/paired-delta.js';

test('mean, variance and median', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
  assert.equal(variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7);
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(mean([])));
});

test('percentiles interpolate between closest ranks', () => {
  const s = Float64Array.from([10, 20, 30, 40, 50]);
  assert.equal(percentileOfSorted(s, 0), 10);
  assert.equal(percentileOfSorted(s, 50), 30);
  assert.equal(percentileOfSorted(s, 100), 50);
  assert.equal(percentileOfSorted(s, 90), 46);
});

test('a nearest-rank percentile is an observed value, where the interpolating one falls between ranks', () => {
  const four = [1, 2, 3, 4];
  assert.equal(nearestRankOfSorted(four, 50), 2);
  assert.equal(percentileOfSorted(four, 50), 2.5, 'the two disagree between ranks');
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(nearestRankOfSorted(hundred, 99), 99);
  assert.ok(Math.abs(percentileOfSorted(hundred, 99) - 99.01) < 1e-9);
  assert.equal(nearestRankOfSorted([7], 99), 7);
  assert.equal(nearestRankOfSorted([], 50), null);
  assert.equal(nearestRankOfSorted([3, 9, 27], 50), 9);
});

test('sum adds left to right, 0 when empty', () => {
  assert.equal(sum([]), 0);
  assert.equal(sum([0.1, 0.2, 0.3]), [0.1, 0.2, 0.3].reduce((s, x) => s + x, 0));
});

test('relative margin of error uses Student t at 95 %', () => {
  // n = 4, mean 10, sd = sqrt(20/3): rme = t(3) * sd / sqrt(4) / mean
  const xs = [7, 9, 11, 13];
  const expected = (3.182 * Math.sqrt(20 / 3) / 2 / 10) * 100;
  assert.ok(Math.abs(relativeMarginOfError(xs) - expected) < 1e-9);
  assert.equal(tCritical95(1000), 1.96);
});

test('latency summary from unsorted values', () => {
  const values = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1..1000 reversed
  const s = latencySummary(values);
  assert.equal(s.count, 1000);
  assert.equal(s.p50, 500.5);
  assert.equal(s.max, 1000);
  assert.ok(s.p99 > 989 && s.p99 < 991);
  assert.equal(latencySummary([]), null);
});

test('delta against a baseline', () => {
  assert.equal(deltaPct(110, 100), 10);
  assert.equal(deltaPct(50, 100), -50);
  assert.equal(deltaPct(100, 0), null);
  assert.equal(deltaPct(undefined, 100), null);
});

test('Mann-Whitney U: textbook values and clear cases', async () => {
  const { mannWhitneyU, normalCdf } = await import('../../lib/common/stats.js');
  assert.ok(Math.abs(normalCdf(1.96) - 0.975) < 1e-4);
  assert.ok(Math.abs(normalCdf(-1) - 0.158655) < 1e-4);
  // Two samples of 10 with one tie (20): U = 11.5; by hand, sigma = sqrt(100/12 * (21 - 6/380)) = 13.224,
  // z = (|88.5 - 50| - 0.5) / 13.224 = 2.8736, p = 2 * (1 - Phi(z)) = 0.00406.
  const a = [19, 22, 16, 29, 24, 20, 27, 25, 26, 28];
  const b = [20, 11, 17, 12, 15, 13, 18, 21, 14, 23];
  const r = mannWhitneyU(a, b);
  assert.equal(r.u, 11.5);
  assert.ok(Math.abs(r.z - 2.8736) < 1e-3, `z = ${r.z}`);
  assert.ok(Math.abs(r.p - 0.00406) < 1e-4, `p = ${r.p}`);
  assert.ok(r.z > 0, 'the first sample is the larger');
  // Identical distributions: not significant. Shifted ones: significant.
  const base = Array.from({ length: 50 }, (_, i) => 1000 + (i % 10));
  assert.ok(mannWhitneyU(base, [...base]).p > 0.05);
  assert.ok(mannWhitneyU(base, base.map((x) => x * 1.05)).p < 0.05);
  assert.ok(Number.isNaN(mannWhitneyU([1], [2, 3]).p));
});

test('latency recorder: every latency counted in a histogram, percentiles to 0.1 %, the max exact, memory bounded', async () => {
  const { LatencyRecorder } = await import('../../lib/measuring/driver/latency.js');
  const r = new LatencyRecorder();
  for (let i = 1; i <= 100000; i++) r.push(i / 10); // 0.1 µs to 10 ms
  assert.equal(r.length, 100000);
  const s = r.summary();
  assert.equal(s.count, 100000);
  for (const [p, exact] of [['p50', 5000], ['p90', 9000], ['p99', 9900], ['p999', 9990]]) {
    assert.ok(Math.abs(s[p] - exact) / exact <= 0.001 + 1e-9, `${p} ${s[p]} is within 0.1 % of ${exact}`);
  }
  assert.equal(s.max, 10000);
  assert.ok(r.histogram.countsArrayLength < 50000, 'memory does not grow with the values recorded');
  assert.equal(new LatencyRecorder().summary(), null);
});

test('median confidence interval: order-statistic ranks from the binomial table, null when n is too small', () => {
  const ranks = (n) => medianConfidenceInterval(Array.from({ length: n }, (_, i) => n - i)); // unsorted input
  assert.equal(ranks(5), null); // 2 × 1/32 > 5 %: no 95 % interval from 5 values
  assert.deepEqual(ranks(6), [1, 6]);
  assert.deepEqual(ranks(10), [2, 9]);
  assert.deepEqual(ranks(20), [6, 15]);
  assert.deepEqual(ranks(30), [10, 21]);
  assert.deepEqual(medianConfidenceInterval([5, 1, 4, 2, 3, 9, 8, 7, 6, 10], 0.8), [3, 8]);
});

test('k intervals that hold together at 95 % are each taken at 1 - 0.05 / k, and are wider', () => {
  assert.equal(eachIntervalLevel(1), 0.95);
  assert.equal(eachIntervalLevel(0), 0.95);
  assert.ok(Math.abs(eachIntervalLevel(14) - (1 - 0.05 / 14)) < 1e-12);
  const ref = Array.from({ length: 120 }, (_, i) => ({ round: i, opsPerSec: 1000 }));
  const row = ref.map((r, i) => ({ round: i, opsPerSec: 1000 * (1 + (((i * 37) % 41) - 20) / 400) }));
  const one = pairedDelta(row, ref);
  const ofSeven = pairedDelta(row, ref, eachIntervalLevel(7));
  assert.equal(one.deltaPct, ofSeven.deltaPct);
  assert.ok(ofSeven.ci[0] < one.ci[0] && ofSeven.ci[1] > one.ci[1], JSON.stringify([one.ci, ofSeven.ci]));
  assert.equal(pairedDelta(row.slice(0, 8), ref, eachIntervalLevel(7)).ci, null, '8 pairs are too few for 99.29 %');
});

// Rounds of a row measured in 4 processes taking the rounds in turn, each round scattered by a
// deterministic ±5 %, and each process off by its own share.
const scatter = (i) => 1 + (((i * 37) % 41) - 20) / 400;
// `shift` moves each block of rounds to other processes, as the two rows' own schedules do.
const inProcesses = (offsets, { base = 1000, shift = 0 } = {}) => Array.from({ length: 120 }, (_, i) => {
  const process = (i + shift * Math.floor(i / offsets.length)) % offsets.length;
  return { round: i, process, opsPerSec: base * scatter(i) * (1 + offsets[process]) };
});
const withoutProcess = (rounds) => rounds.map(({ process, ...r }) => r);

test('the normal quantile inverts the normal CDF', () => {
  assert.ok(Math.abs(normalQuantile(0.975) - 1.96) < 1e-3);
  assert.ok(Math.abs(normalQuantile(0.5)) < 1e-9);
  assert.ok(Math.abs(normalQuantile(0.025) + 1.96) < 1e-3);
});

test('processes that differ only by their rounds\' scatter show no spread between them', () => {
  const logs = inProcesses([0, 0, 0, 0]).map((r) => Math.log(r.opsPerSec / 1000));
  const { variance: v, processes } = betweenProcessVariance(logs, logs.map((_, i) => i % 4));
  assert.equal(processes, 4);
  assert.ok(v < 1e-4, `spread ${Math.sqrt(v)}`);
  assert.deepEqual(betweenProcessVariance([0.1, 0.2, 0.3], [0, 0, 0]), { variance: 0, processes: 1 }, 'one process: nothing to compare');
});

test('processes ±8 % apart show about that spread between them', () => {
  const offsets = [-0.08, 0.08, -0.08, 0.08];
  const logs = inProcesses(offsets).map((r) => Math.log(r.opsPerSec / 1000));
  const sd = Math.sqrt(betweenProcessVariance(logs, logs.map((_, i) => i % 4)).variance);
  assert.ok(sd > 0.07 && sd < 0.1, `sd ${sd}`);
});

test('a paired Δ between rows whose processes differ is widened by that spread, and says how much', () => {
  const ref = inProcesses([0, 0, 0, 0], { shift: 1 });
  // Two of the row's processes are 8-9 % slow, two about as fast: the rounds alone call it significant.
  const row = inProcesses([-0.09, -0.08, -0.01, 0]);
  const withProcesses = pairedDelta(row, ref);
  const roundsOnly = pairedDelta(withoutProcess(row), withoutProcess(ref));
  assert.equal(roundsOnly.processSdPct, 0, 'without process numbers there is nothing to widen by');
  assert.ok(roundsOnly.ci[1] < 0, `the rounds alone exclude 0: ${roundsOnly.ci}`);
  assert.equal(withProcesses.deltaPct, roundsOnly.deltaPct, 'the Δ is the same median ratio');
  assert.ok(withProcesses.processSdPct > 1.5, `process spread ${withProcesses.processSdPct}`);
  assert.ok(withProcesses.ci[0] < roundsOnly.ci[0] && withProcesses.ci[1] > roundsOnly.ci[1], JSON.stringify([roundsOnly.ci, withProcesses.ci]));
  assert.ok(withProcesses.ci[1] > 0, `two slow processes of four do not make a difference: ${withProcesses.ci}`);
  assert.ok(withProcesses.halfWidthPct > roundsOnly.halfWidthPct);
});

test('rows measured in the same processes (calibrate) count their spread once', () => {
  const ref = inProcesses([0.05, -0.05, 0.04, -0.04]);
  const row = ref.map((r) => ({ ...r, opsPerSec: r.opsPerSec * 0.98 * (r.process % 2 ? 1.03 : 0.97) }));
  const twoDraws = pairedDelta(row, ref);
  const oneDraw = pairedDelta(row, ref, 0.95, { sameProcesses: true });
  assert.ok(Math.abs(oneDraw.processSdPct * Math.SQRT2 - twoDraws.processSdPct) < 1e-9, JSON.stringify([oneDraw.processSdPct, twoDraws.processSdPct]));
});

test('a paired ratio that steps up halfway through the rounds is told apart from a steady one', () => {
  const noise = (i) => 1 + (((i * 7) % 11) - 5) / 100; // ±5 %, the same in both rows' rounds
  const ref = Array.from({ length: 100 }, (_, i) => ({ round: i, opsPerSec: 10000 * noise(i + 3) }));
  const steady = Array.from({ length: 100 }, (_, i) => ({ round: i, opsPerSec: 12000 * noise(i) }));
  const warming = Array.from({ length: 100 }, (_, i) => ({ round: i, opsPerSec: (i < 50 ? 9000 : 12000) * noise(i) }));
  const s = pairedDrift(steady, ref);
  assert.ok(Math.abs(s.firstPct - s.secondPct) < 3, JSON.stringify(s));
  assert.ok(s.p > 0.05, JSON.stringify(s));
  const w = pairedDrift(warming, ref);
  assert.ok(w.firstPct < -5 && w.secondPct > 15, JSON.stringify(w));
  assert.ok(w.p < 1e-6, JSON.stringify(w));
  // The halves are by round number, whatever order the rounds come in.
  assert.deepEqual(pairedDrift([...warming].reverse(), ref), w);
  assert.equal(pairedDrift(warming.slice(0, 20), ref), null, 'too few rounds to halve');
});

test('a log ratio as a percentage, and a row key that splits back into its bench and driver', () => {
  assert.equal(logRatioPct(0), 0);
  assert.ok(Math.abs(logRatioPct(Math.log(1.1)) - 10) < 1e-9);
  assert.ok(Math.abs(logRatioPct(Math.log(0.8)) + 20) < 1e-9);
  assert.deepEqual(splitRowKey(rowKey('do', 'mysql2@3.9.0')), ['do', 'mysql2@3.9.0']);
  assert.notEqual(rowKey('a', 'bc'), rowKey('ab', 'c'));
});
