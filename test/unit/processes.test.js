// Pure parts of measuring a row in several processes: which process gives each round's window, and
// how their latencies and counts are put together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processesFor } from '../../lib/measuring/run/rows.js';
import { processSchedule } from '../../lib/measuring/run/schedule.js';
import { combineClosed } from '../../lib/measuring/figures/combine.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LatencyRecorder } from '../../lib/measuring/driver/latency.js';
import { decodeHistogram, encodeHistogram, histogramSummary, mergeHistograms, newHistogram, recordedValues } from '../../lib/measuring/figures/histograms.js';

/** A seeded generator, so a schedule can be replayed. */
function seeded(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

test('schedule: within every block of k rounds each process gives one window, in a random order', () => {
  for (const k of [1, 2, 3]) {
    const processFor = processSchedule(k, seeded(7 + k));
    const rounds = Array.from({ length: 12 * k }, (_, r) => processFor(r));
    for (let b = 0; b < rounds.length; b += k) {
      assert.deepEqual(rounds.slice(b, b + k).sort(), [...Array(k).keys()], `block at ${b}: ${rounds}`);
    }
    assert.equal(processFor(3), rounds[3], 'asking again gives the same process');
  }
  const orders = new Set();
  const processFor = processSchedule(2, seeded(1));
  for (let b = 0; b < 40; b += 2) orders.add(`${processFor(b)}${processFor(b + 1)}`);
  assert.deepEqual([...orders].sort(), ['01', '10'], 'both orders occur');
});

test('processes: the setting, but one for a bench whose plan keeps figures of its own across windows', () => {
  assert.equal(processesFor({}, { processes: 2 }), 2);
  assert.equal(processesFor({}, {}), 1);
  assert.equal(processesFor({ summarize: () => ({}) }, { processes: 3 }), 1);
});

// Latencies recorded from real drivers (a run of `do` and `select_100_cols`, their rows' histograms).
const recorded = (name) => decodeHistogram(readFileSync(fileURLToPath(new URL(`../fixtures/latencies/${name}.hdr`, import.meta.url)), 'utf8').trim());
const FIGURES = ['count', 'p50', 'p90', 'p99', 'p999', 'max'];
const figuresOf = (histogram) => Object.fromEntries(FIGURES.map((k) => [k, histogramSummary(histogram)[k]]));

test('merging is exact: two histograms merged read as one histogram that recorded all the values', () => {
  for (const name of ['mysql2-do', 'mariadb-select_100_cols']) {
    const values = recordedValues(recorded(name));
    // The same latencies recorded by one recorder, and dealt between two (as two processes of a row would).
    const one = newHistogram();
    const [a, b] = [newHistogram(), newHistogram()];
    values.forEach(([ns, n], i) => {
      one.recordValueWithCount(ns, n);
      for (let k = 0; k < n; k++) ((i + k) % 2 ? a : b).recordValue(ns);
    });
    const merged = mergeHistograms([encodeHistogram(a), encodeHistogram(b)]);
    assert.deepEqual(figuresOf(merged), figuresOf(one), name);
    assert.ok(figuresOf(a).count > 0 && figuresOf(b).count > 0);
  }
  // Two drivers' latencies: the merge of their histograms, against one recorder of both.
  const both = newHistogram();
  for (const name of ['mysql2-do', 'mariadb-do']) for (const [ns, n] of recordedValues(recorded(name))) both.recordValueWithCount(ns, n);
  const merged = mergeHistograms(['mysql2-do', 'mariadb-do'].map((n) => encodeHistogram(recorded(n))));
  assert.deepEqual(figuresOf(merged), figuresOf(both));
  assert.equal(figuresOf(merged).count, figuresOf(recorded('mysql2-do')).count + figuresOf(recorded('mariadb-do')).count);
  assert.equal(mergeHistograms([null, undefined]), null);
});

test('closing several processes of a row: operations and latencies counted, latency from their merged histograms, the larger memory', () => {
  const part = (values, operations, rssMB) => {
    const r = new LatencyRecorder();
    for (const us of values) r.push(us);
    return { operations, latency: { ...r.summary(), histogram: r.encode() }, rssMB };
  };
  const closed = combineClosed([part([100, 200, 300], 30, 60), part([400, 700], 20, 70)]);
  assert.equal(closed.operations, 50);
  assert.equal(closed.latency.count, 5, 'the latencies taken, one operation in ten');
  assert.ok(Math.abs(closed.latency.p50 - 300) <= 0.3, `${closed.latency.p50}`);
  assert.equal(closed.latency.max, 700);
  assert.equal(typeof closed.latency.histogram, 'string');
  assert.equal(decodeHistogram(closed.latency.histogram).totalCount, 5);
  assert.equal(closed.rssMB, 70);
});
