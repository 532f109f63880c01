// The sampler around benchmark.js, with an operation that needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure, sampleWindow, warmUp } from '../lib/measuring/sampler.js';

// About 1 ms each (a timer's minimum), steady from the first call, like a round trip to a server.
const tick = () => new Promise((resolve) => setTimeout(() => resolve('ok'), 0));

test('a window is one benchmark.js sample, kept, of about the requested time, after a lead-in that runs until it starts', async () => {
  const checked = [];
  const ops = [tick];
  const check = (r) => checked.push(r);
  const sizing = await warmUp({ ops, check, warmup: 0.1 });
  const m = await sampleWindow({ ops, check, sizing, time: 0.2, lead: 0.05 });
  assert.equal(m.cycles, 1);
  assert.equal(m.samples, 1, 'no cycle discarded (benchmark.js drops cycles that finish under minTime)');
  // The sample is sized from the lead-in's time per operation: on a busy host its length can be off
  // several-fold either way, so only its order of magnitude is checked.
  const measured = (m.measuredTo - m.measuredFrom) / 1000;
  assert.ok(measured > 0.01 && measured < 5, `measured for ${measured} s`);
  assert.ok(m.leadOps >= 1, 'the lead-in ran');
  assert.ok(m.cpuUs >= 0 && Number.isFinite(m.cpuUs));
  assert.equal(m.sampleOpsPerSec.length, m.samples);
  assert.ok(m.opsPerSec > 0 && Number.isFinite(m.rme));
  assert.ok(checked.length > 0 && checked.every((r) => r === 'ok'), 'results were checked');
});

test('a failing check fails the measurement instead of producing a figure', async () => {
  let calls = 0;
  const check = () => { if (++calls > 50) throw new Error('row 1: expected 1, got 2'); };
  await assert.rejects(measure({ ops: [tick], check, time: 0.3, warmup: 0.01 }), /expected 1, got 2/);
});
