import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFences, countingOf, emptyHistory, historyCommits, judgedFloorPct, quartiles, sameCounting, withCommits } from '../../lib/results/fences.js';
import { gateRows } from '../../lib/reporting/gate-comment.js';
import { fencesLine } from '../../lib/gate.js';

const counted = { counter: 'instructions', node: 'v20.20.2', server: '10.11.19', harness: '1.1.0' };
const history = (values, bench = 'execute') => ({ ...emptyHistory('mysql2', counted), commits: values.map((v, i) => ({ commit: `c${i}`, perOp: { [bench]: v } })) });

test('quartiles interpolate between ranks', () => {
  assert.deepEqual(quartiles([4, 1, 3, 2, 5]), { q1: 2, q3: 4 });
  assert.deepEqual(quartiles([0, 0, 0, 1]), { q1: 0, q3: 0.25 });
});

test("a bench's fence is Q3 + 3 × IQR of its last 30 absolute steps", () => {
  // 41 commits: steps of 1 % and 2 % alternating, then the last 30 are what count.
  const values = [1000];
  for (let i = 0; i < 40; i++) values.push(values.at(-1) * (i % 2 ? 1.02 : 1 / 1.01));
  const { execute } = benchFences(history(values));
  assert.equal(execute.steps, 30);
  assert.ok(Math.abs(execute.q1 - 0.990) < 0.01 && Math.abs(execute.q3 - 2) < 1e-9, `${execute.q1} ${execute.q3}`);
  assert.ok(Math.abs(execute.fencePct - (execute.q3 + 3 * (execute.q3 - execute.q1))) < 1e-12);
  // One large step is an outlier: it does not move the fence of a history that otherwise repeats.
  const flat = benchFences(history([100, 100, 100, 100, 100, 200, 200, 200, 200, 200, 200, 200]));
  assert.equal(flat.execute.fencePct, 0);
});

test('a bench with fewer than ten steps has no fence, and a commit without the bench is passed over', () => {
  assert.deepEqual(benchFences(history([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])), {});
  const h = history([100, 101, 100, 101, 100, 101, 100, 101, 100, 101, 100, 101]);
  h.commits.splice(3, 0, { commit: 'x', perOp: {} });
  assert.equal(benchFences(h).execute.steps, 11);
});

test('the floor stands where the fence is lower, or missing', () => {
  assert.equal(judgedFloorPct(null, 0.5), 0.5);
  assert.equal(judgedFloorPct({ fencePct: 0.07 }, 0.5), 0.5);
  assert.equal(judgedFloorPct({ fencePct: 1.3 }, 0.5), 1.3);
});

test("a history keeps the base branch's first-parent order, drops commits off it, and keeps its last ones", () => {
  const h = { ...emptyHistory('mysql2', counted), commits: [{ commit: 'b', perOp: { do: 2 } }, { commit: 'a', perOp: { do: 1 } }] };
  const kept = withCommits(h, [{ commit: 'd', perOp: { do: 4 } }, { commit: 'side', perOp: { do: 9 } }, { commit: 'b', perOp: { do: 3 } }], ['a', 'b', 'c', 'd'], 2);
  assert.deepEqual(kept.commits, [{ commit: 'b', perOp: { do: 3 } }, { commit: 'd', perOp: { do: 4 } }]);
});

test("a count run's git rows become a history's commits, an unsteady or failed count left out", () => {
  const results = {
    drivers: [{ name: 'a', git: { commit: 'aaa' } }, { name: 'b', git: { commit: 'bbb' } }, { name: 'mysql', version: '2.18.1' }],
    benches: [{ name: 'do', results: [{ driver: 'a', ok: true, count: { perOp: 10.4 } }, { driver: 'b', ok: true, count: { perOp: 11, unsteady: true } }, { driver: 'mysql', ok: true, count: { perOp: 9 } }] },
      { name: 'execute', results: [{ driver: 'a', ok: false }, { driver: 'b', ok: true, count: { perOp: 20 } }] }],
  };
  assert.deepEqual(historyCommits(results), [{ commit: 'aaa', perOp: { do: 10 } }, { commit: 'bbb', perOp: { execute: 20 } }]);
});

test('histories counted otherwise are not compared', () => {
  assert.ok(sameCounting(counted, { ...counted }));
  assert.ok(!sameCounting(counted, { ...counted, node: 'v22.1.0' }));
  assert.ok(!sameCounting(counted, { ...counted, harness: '1.2.0' }));
});

test("the gate judges a bench by its fence where it is wider than the floor, and says which", () => {
  const results = {
    settings: { count: { counter: 'instructions', noiseFloorPct: 0.1, benchFloorsPct: { execute: 0.5 } } },
    drivers: [{ name: 'base', git: { commit: 'b' } }, { name: 'head', git: { commit: 'h' } }],
    benches: ['do', 'execute'].map((name) => ({ name, results: [{ driver: 'base', ok: true, count: { perOp: 1000 } }, { driver: 'head', ok: true, count: { perOp: 1015 } }] })),
    gate: { fences: { commits: 40, benches: { do: { fencePct: 2, steps: 30, q1: 0, q3: 0.5 }, execute: { fencePct: 0.2, steps: 30, q1: 0, q3: 0.05 } } } },
  };
  const rows = gateRows(results, { threshold: 1, base: { label: 'base' }, head: { label: 'head' } });
  assert.deepEqual(rows.map((r) => [r.bench, r.floorPct, r.moved]), [['do', 2, false], ['execute', 0.5, true]]);
  const line = fencesLine('h.json', { history: { commits: new Array(40) }, source: 'history', why: null }, results);
  assert.equal(line, 'h.json: 40 commit(s) of the base branch: do 2.00 % (its fence), execute 0.5 % (the floor; its fence 0.20 %)');
});

test("what a count run was counted with: its counter, Node, server and the harness's version", () => {
  const results = { settings: { count: { what: 'instructions' } }, env: { node: 'v20.20.2', harness: { version: '1.1.0', commit: 'abc' } }, server: { version: '10.11.19-MariaDB' } };
  assert.deepEqual(countingOf(results), { counter: 'instructions', node: 'v20.20.2', server: '10.11.19-MariaDB', harness: '1.1.0' });
});
