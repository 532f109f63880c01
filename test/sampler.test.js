// The sampler around benchmark.js, with an operation that needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure } from '../lib/sampler.js';

// About 1 ms each (a timer's minimum), steady from the first call, like a round trip to a server.
const tick = () => new Promise((resolve) => setTimeout(() => resolve('ok'), 0));

test('every benchmark.js cycle is kept as a sample, and sampling ends on the harness\'s clock near --time', async () => {
  const checked = [];
  const m = await measure({ ops: [tick], check: (r) => checked.push(r), time: 0.5, warmup: 0.1 });
  assert.equal(m.cycles, m.samples, 'no cycle discarded (benchmark.js drops cycles that finish under minTime)');
  assert.ok(m.samples >= 5, `${m.samples} samples`);
  // Samples last about 100 ms, so sampling ends within a few samples of the requested time.
  assert.ok(m.samplingSeconds >= 0.5 && m.samplingSeconds < 0.5 + 0.5, `sampled for ${m.samplingSeconds} s`);
  assert.equal(m.sampleOpsPerSec.length, m.samples);
  assert.ok(m.opsPerSec > 0 && Number.isFinite(m.rme));
  assert.ok(checked.length > 0 && checked.every((r) => r === 'ok'), 'results were checked');
});

test('a failing check fails the measurement instead of producing a figure', async () => {
  let calls = 0;
  const check = () => { if (++calls > 50) throw new Error('row 1: expected 1, got 2'); };
  await assert.rejects(measure({ ops: [tick], check, time: 0.3, warmup: 0.01 }), /expected 1, got 2/);
});
