// --count instructions, the pure parts: sizing, reading Valgrind's total, Δ and comparing two counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COUNT_V8_FLAGS, parseInstructions, sizeCount } from '../lib/replay/count.js';
import { compareCounts, countIncomparability } from '../lib/results/compare-counts.js';
import { applyDeltas } from '../lib/results/deltas.js';
import { renderTable } from '../lib/reporting/table.js';

test("Valgrind's total is read from its summary line", () => {
  assert.equal(parseInstructions('==12== \n==12== I   refs:      2,669,973,195\n'), 2669973195);
  assert.equal(parseInstructions('no summary'), null);
});

test('a count is sized from the bytes a replayed operation moves, the same on every run', () => {
  const recording = (sent, received) => ({ cycleFrom: 1, cycleOps: 2, steps: [{ sent: 40, reply: Buffer.alloc(11) }, { sent, reply: Buffer.alloc(received) }, { sent, reply: Buffer.alloc(received) }] });
  assert.deepEqual(sizeCount(recording(30, 11)), { warmup: 32768, ops: 8192 });
  assert.deepEqual(sizeCount(recording(20, 8400)), { warmup: 4096, ops: 1024 });
  assert.deepEqual(sizeCount(recording(30, 41000)), { warmup: 1024, ops: 256 });
  assert.ok(COUNT_V8_FLAGS.includes('--predictable') && COUNT_V8_FLAGS.includes('--hash-seed=1'));
});

const count = { what: 'instructions', valgrind: 'valgrind-3.19.0', valgrindArgs: ['--tool=cachegrind'], v8Flags: ['--predictable'], noiseFloorPct: 0.05 };
const run = (perOp, extra = {}) => ({
  env: { node: 'v20.20.2' },
  settings: { baseline: 'mysql2', count, replay: { figure: 'instructions' }, ...extra.settings },
  drivers: [{ name: 'mysql2', options: {} }, { name: 'mariadb', options: {} }],
  benches: [{
    name: 'do',
    results: Object.entries(perOp).map(([driver, n]) => ({ driver, ok: true, status: 'ok', protocol: 'text', instructionsPerOp: n, instructions: { ops: 1024, warmup: 1024, totals: [1, 2] } })),
  }],
  complete: true,
});

test('an instruction Δ has the sign of ops/s and is called beyond the noise floor only', () => {
  const r = applyDeltas(run({ mysql2: 25000, mariadb: 25250 }));
  const mariadb = r.benches[0].results[1];
  assert.equal(mariadb.deltaPct, -0.99);
  assert.equal(mariadb.deltaSignificant, true);
  const same = applyDeltas(run({ mysql2: 25000, mariadb: 25005 })).benches[0].results[1];
  assert.equal(same.deltaSignificant, false);
  assert.match(renderTable(r), /-0\.99 % ±0\.05/);
  assert.match(renderTable(r), /instructions\/op/);
});

test('two counts: more work beyond the floor and the threshold is a regression; counted differently is refused', () => {
  const c = compareCounts(run({ mysql2: 25000, mariadb: 23000 }), run({ mysql2: 25500, mariadb: 23005 }), { threshold: 1 });
  const [mysql2, mariadb] = c.rows;
  assert.equal(mysql2.changePct, -1.961);
  assert.equal(mysql2.regression, true);
  assert.equal(mariadb.beyondFloor, false);
  assert.equal(c.regressions.length, 1);
  assert.equal(compareCounts(run({ mysql2: 25000 }), run({ mysql2: 25100 }), { threshold: 1 }).regressions.length, 0);
  assert.equal(countIncomparability(run({ mysql2: 1 }), run({ mysql2: 1 })), null);
  const otherNode = { ...run({ mysql2: 1 }), env: { node: 'v22.1.0' } };
  assert.match(countIncomparability(run({ mysql2: 1 }), otherNode), /Node version differs/);
  const otherFlags = run({ mysql2: 1 }, { settings: { count: { ...count, v8Flags: ['--no-opt'] } } });
  assert.match(countIncomparability(run({ mysql2: 1 }), otherFlags), /V8 flags differ/);
});
