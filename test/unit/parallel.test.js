import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inParallel } from '../../lib/common/parallel.js';

const tick = () => new Promise((r) => setImmediate(r));

test('inParallel: every item once, in order, never more than the limit at a time', async () => {
  let running = 0;
  let most = 0;
  const started = [];
  await inParallel([10, 20, 30, 40, 50], 2, async (item, i) => {
    started.push([item, i]);
    running++;
    most = Math.max(most, running);
    await tick();
    running--;
  });
  assert.deepEqual(started, [[10, 0], [20, 1], [30, 2], [40, 3], [50, 4]]);
  assert.equal(most, 2);
  await inParallel([], 4, () => assert.fail('no item'));
});

test('inParallel: a failure rejects, and an abort stops handing out items', async () => {
  await assert.rejects(inParallel([1, 2, 3], 2, async (x) => { if (x === 2) throw new Error('two'); }), /two/);
  const controller = new AbortController();
  const seen = [];
  await assert.rejects(inParallel([1, 2, 3, 4], 1, async (x) => { seen.push(x); if (x === 2) controller.abort(new Error('stop')); }, { signal: controller.signal }), /stop/);
  assert.deepEqual(seen, [1, 2]);
});
