// A release history's steps confirmed by counting their rows again (lib/replay/confirm-steps.js):
// which rows, when a second count agrees, and when a third decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agree, confirmSteps, medianRow, stepRows } from '../../lib/replay/confirm-steps.js';

const row = (perOp) => ({ ok: true, count: { perOp, profile: 'profiles/x' } });

test('stepRows: both sides of every step beyond the floor, skipping rows without a count', () => {
  const rows = [row(88619), row(88626), { ok: false, status: 'n/a' }, row(88864), row(88864), row(94079), row(94086)];
  assert.deepEqual(stepRows(rows, 0.1), [1, 3, 4, 5]);
  assert.deepEqual(stepRows(rows, 10), []);
  assert.ok(agree(88864, 88950, 0.1) && !agree(88864, 89076, 0.1));
  assert.equal(medianRow([row(89076), row(88863), row(88862)]).count.perOp, 88863);
});

/** A recountRow for confirmSteps: each bench's next figure at row i from `again` (bench name → row → figures), each call noted. */
const recounter = (again, asked) => async (i, benches) => {
  asked.push([i, benches.map((b) => b.name)]);
  return new Map(benches.map((b) => [b.name, row(again[b.name].get(i).shift())]));
};

test('confirmSteps: a second count that agrees keeps the row; one that does not brings a third, and the median stands', async () => {
  const entry = { results: [row(88626), row(89076), row(89100), row(94079)] };
  const asked = [];
  const recountRow = recounter({ do: new Map([[0, [88627]], [1, [88863, 88862]], [2, [89099]], [3, [94080]]]) }, asked);
  const n = await confirmSteps([{ bench: { name: 'do' }, entry }], { floorOf: () => 0.1, recountRow, parallel: 2 });
  assert.equal(n, 4);
  assert.deepEqual(asked.map(([i]) => i).toSorted(), [0, 1, 1, 2, 3]);
  assert.deepEqual(entry.results.map((r) => r.count.perOp), [88626, 88863, 89100, 94079]);
  assert.deepEqual(entry.results[1].count.processes, [89076, 88863, 88862]);
  assert.deepEqual(entry.results[0].count.processes, [88626, 88627]);
  assert.equal(entry.results[0].count.profile, 'profiles/x', 'a confirmed row keeps its own profile');
});

test('confirmSteps: nothing to confirm without a step; a failed recount leaves the row as it was', async () => {
  const flat = { results: [row(100), row(100)] };
  assert.equal(await confirmSteps([{ bench: {}, entry: flat }], { floorOf: () => 0.1, recountRow: async () => assert.fail('no recount') }), 0);
  const stepped = { results: [row(100), row(200)] };
  await confirmSteps([{ bench: { name: 'do' }, entry: stepped }], { floorOf: () => 0.1, recountRow: async () => new Map([['do', { ok: false }]]) });
  assert.deepEqual(stepped.results.map((r) => [r.count.perOp, r.count.processes]), [[100, undefined], [200, undefined]]);
});

test("confirmSteps: a row's benches that stepped are counted again together, one process a row, and only those apart a third time", async () => {
  const entries = ['do', 'execute'].map((name) => ({ bench: { name }, entry: { results: [row(100), row(200)] } }));
  const asked = [];
  const recountRow = recounter({ do: new Map([[0, [100]], [1, [200]]]), execute: new Map([[0, [100]], [1, [230, 201]]]) }, asked);
  assert.equal(await confirmSteps(entries, { floorOf: () => 0.1, recountRow, parallel: 1 }), 4);
  assert.deepEqual(asked, [[0, ['do', 'execute']], [1, ['do', 'execute']], [1, ['execute']]]);
  assert.deepEqual(entries[1].entry.results[1].count.processes, [200, 230, 201]);
  assert.equal(entries[1].entry.results[1].count.perOp, 201);
});
