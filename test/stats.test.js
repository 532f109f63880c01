import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mean, variance, median, percentileOfSorted, relativeMarginOfError, latencySummary, deltaPct, tCritical95 } from '../lib/stats.js';

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
