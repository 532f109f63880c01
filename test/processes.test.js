// Pure parts of measuring a row in several processes: which process gives each round's window, and
// how their latencies and counts are put together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineClosed, processesFor, processSchedule } from '../lib/measuring/coordinator.js';
import { mergeLatencySamples } from '../lib/measuring/latency.js';

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

test('latency samples: kept in full, put side by side; thinned, each part weighted by its operations', () => {
  const full = mergeLatencySamples([{ values: [1, 2, 3], count: 3 }, { values: [10, 20], count: 2 }]);
  assert.deepEqual([...full].sort((a, b) => a - b), [1, 2, 3, 10, 20]);
  // The second recorder kept 2 of its 8 operations (a quarter): the first is thinned to a quarter too.
  const thinned = mergeLatencySamples([{ values: [1, 1, 1, 1, 1, 1, 1, 1], count: 8 }, { values: [9, 9], count: 8 }]);
  assert.deepEqual([...thinned].sort((a, b) => a - b), [1, 1, 9, 9]);
  assert.equal(mergeLatencySamples([{ values: [], count: 0 }]), null);
});

test('closing several processes of a row: operations and latencies counted, latency summarized over all, the larger memory', () => {
  const closed = combineClosed([
    { operations: 30, latency: { count: 3, max: 300 }, latencySample: Float64Array.from([100, 200, 300]), rssMB: 60 },
    { operations: 20, latency: { count: 2, max: 700 }, latencySample: Float64Array.from([400, 700]), rssMB: 70 },
  ]);
  assert.equal(closed.operations, 50);
  assert.equal(closed.latency.count, 5, 'the latencies taken, one operation in ten');
  assert.equal(closed.latency.p50, 300);
  assert.equal(closed.latency.max, 700);
  assert.equal(closed.rssMB, 70);
});
