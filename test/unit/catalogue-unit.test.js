// Unit tests (no server) for the bench catalogue's pure parts: --concurrency lists, a level's rate passes,
// the scaling, transfer, streaming and metadata sections, and what counts as a failed section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConcurrency, concurrencyLevels } from '../../lib/measuring/run/scaling.js';
import { passRates, ratePasses } from '../../lib/measuring/run/rate-passes.js';
import { renderScaling, scalingData } from '../../lib/reporting/scaling.js';
import { probesFailed } from '../../lib/measuring/run/catalogue.js';
import { renderSections } from '../../lib/reporting/sections.js';
import { renderTransfer } from '../../benchs/transfer/section.js';
import { probeSpec } from '../../benchs/stream_rows/probe.js';
import { renderStreaming, streamingSummary } from '../../benchs/stream_rows/section.js';
import { serverOffer } from '../../benchs/execute_metadata/probe.js';
import { renderMetadata } from '../../benchs/execute_metadata/section.js';
import { checkTransfer } from '../../benchs/transfer/workload.js';
import { BENCHES } from '../../benchs/index.js';
import { CheckError } from '../../benchs/_check.js';

test('--concurrency takes one level or a list of distinct levels', () => {
  assert.equal(parseConcurrency('4'), 4);
  assert.deepEqual(parseConcurrency('1,4,16'), [1, 4, 16]);
  assert.deepEqual(parseConcurrency(' 2 , 8 '), [2, 8]);
  for (const bad of ['0', '-1', '1.5', 'abc', '', '1,,4', '4,x', '2000']) {
    assert.throws(() => parseConcurrency(bad), /--concurrency must be a whole number/, bad);
  }
  assert.throws(() => parseConcurrency('1,4,1'), /names level 1 twice/);
  assert.deepEqual(concurrencyLevels(3), [3]);
  assert.deepEqual(concurrencyLevels([1, 4]), [1, 4]);
});

test('a level\'s rate passes: one closed loop, or the closed-loop pass before shares, then each rate', () => {
  assert.deepEqual(passRates(null), [null]);
  assert.deepEqual(passRates({ rates: [{ perSec: 2000 }, { perSec: 4000 }] }), [{ perSec: 2000 }, { perSec: 4000 }]);
  assert.deepEqual(passRates({ rates: [{ pctOfMax: 50 }, { perSec: 9000 }] }), [null, { pctOfMax: 50 }, { perSec: 9000 }]);
  assert.equal(ratePasses({ rates: [{ pctOfMax: 50 }, { pctOfMax: 120 }] }), 3);
  assert.equal(ratePasses(null), 1);
});

const okRow = (driver, opsPerSec, p99, extra = {}) => ({ driver, ok: true, status: 'ok', opsPerSec, rme: 2, samples: 10, latency: { p50: p99 / 2, p99 }, ...extra });

test('the scaling table shows ops/s and p99 per driver per level, only for benches run at two levels or more', () => {
  const results = {
    settings: { concurrency: [1, 4] },
    benches: [
      { name: 'pool_select', concurrency: 1, results: [okRow('mysql', 1000, 200, { pool: { size: 1, callers: 1 } }), okRow('mariadb', 2000, 150, { pool: { size: 1, callers: 1 } })] },
      { name: 'pool_select', concurrency: 4, results: [okRow('mariadb', 6000, 400, { pool: { size: 4, callers: 4 } }), { driver: 'mysql', ok: false, status: 'failed', error: 'boom' }] },
      { name: 'do', concurrency: 1, results: [okRow('mysql', 5000, 90)] },
    ],
  };
  const data = scalingData(results);
  assert.equal(data.length, 1);
  assert.deepEqual(data[0].levels, [1, 4]);
  const text = renderScaling(results);
  assert.match(text, /scaling · pool_select/);
  assert.match(text, /callers sharing one pool of that size/);
  assert.match(text, /mariadb\s+│\s+2,000 │\s+150 │\s+6,000 │\s+400 │\s+×3\.00/);
  assert.match(text, /mysql\s+│\s+1,000 │\s+200 │\s+FAILED │/);
  assert.doesNotMatch(text, /scaling · do/);
  assert.equal(renderScaling({ benches: [results.benches[2]] }), '');
});

test('the transfer section shows tx/s, p50/p95/p99, retries and deadlocks per workers level', () => {
  const row = okRow('mysql2', 1234, 4000, { latency: { p50: 1500, p99: 4000 }, workload: { committed: 999, retries: 3, deadlocks: 2, lockWaitTimeouts: 1, p95: 2500 } });
  const text = renderTransfer({ settings: { transferAccounts: 10000 }, benches: [{ name: 'transfer', concurrency: 8, results: [row] }] });
  assert.match(text, /10,000 accounts/);
  assert.match(text, /│\s+8 │ mysql2\s+│\s+1,234 │\s+2\.0 % │\s+1\.50 │\s+2\.50 │\s+4\.00 │\s+999 │\s+3 │\s+2 │\s+1 │ passed/);
  assert.equal(renderTransfer({ benches: [] }), '');
});

const streaming = {
  sizes: [10, 100000],
  payloadBytes: 200,
  rows: [
    { rows: 100000, driver: 'mysql', mode: 'fetch-all', ok: true, status: 'ok', msPerRead: 200, reads: 5, heapPeakBytes: 40e6, heapHeldBytes: 30e6, rssPeakBytes: 60e6 },
    { rows: 100000, driver: 'mysql', mode: 'stream', ok: true, status: 'ok', api: "query(sql).on('result', row)", msPerRead: 220, reads: 5, heapPeakBytes: 4e6, heapHeldBytes: 0, rssPeakBytes: 6e6 },
    { rows: 10, driver: 'mysql', mode: 'fetch-all', ok: true, status: 'ok', msPerRead: 0.5, reads: 100, heapPeakBytes: 1000, heapHeldBytes: 10, rssPeakBytes: 0 },
    { rows: 10, driver: 'floor', mode: 'stream', ok: false, status: 'n/a', error: 'a reference client that builds no rows' },
  ],
};

test('the streaming section lists each size, driver and mode, and sums up the largest read', () => {
  const [s] = streamingSummary(streaming);
  assert.equal(s.driver, 'mysql');
  assert.equal(Math.round(s.timePct), 10);
  assert.equal(Math.round(s.heapPeakPct), -90);
  assert.equal(s.heapHeldPct, -100);
  const text = renderStreaming({ drivers: [{ name: 'mysql' }], streaming });
  const lines = text.split('\n');
  const i10 = lines.findIndex((l) => /│\s+10 │ mysql/.test(l));
  const i100k = lines.findIndex((l) => /│\s+100,000 │ mysql/.test(l));
  assert.ok(i10 > 0 && i100k > i10, 'sizes in ascending order');
  assert.match(text, /fetch-all │\s+200 │\s+5 │\s+38\.1 MB │\s+28\.6 MB │\s+57\.2 MB/);
  assert.match(text, /100,000 rows, stream vs fetch-all: mysql time \+10 %, heap peak -90 %, held -100 %/);
  assert.match(text, /streaming APIs: mysql query\(sql\)\.on\('result', row\)/);
  assert.equal(renderStreaming({}), '');
});

test('probeSpec: a module path is loaded again by path, anything else by its (exact) name', () => {
  assert.equal(probeSpec({ name: 'mysql2' }), 'mysql2');
  assert.equal(probeSpec({ name: 'mysql2@3.9.0', source: 'mysql2@^3.9' }), 'mysql2@3.9.0');
  assert.equal(probeSpec({ name: 'slow', source: './test/fixtures/slow-adapter.js' }), './test/fixtures/slow-adapter.js');
});

test('the metadata section shows bytes per execution and whether each driver skips unchanged metadata', () => {
  const results = {
    benches: [
      { name: 'execute_metadata', concurrency: 1, results: [okRow('mariadb', 12000, 100), okRow('mysql2', 8000, 100)] },
      { name: 'execute_metadata_changing', concurrency: 1, results: [okRow('mariadb', 8000, 100), okRow('mysql2', 8000, 100)] },
    ],
    metadata: {
      server: { offered: true, from: 'handshake capability MARIADB_CLIENT_CACHE_METADATA' },
      executions: 50,
      drivers: [
        { driver: 'mysql', ok: false, status: 'n/a', error: 'no prepared statements in this driver' },
        { driver: 'mysql2', ok: true, status: 'ok', bytesUnchanged: 7163, bytesChanging: 7160, skips: false },
        { driver: 'mariadb', ok: true, status: 'ok', bytesUnchanged: 439, bytesChanging: 7018, skips: true },
      ],
    },
  };
  const text = renderMetadata(results);
  assert.match(text, /server offers skipping unchanged metadata: yes/);
  assert.match(text, /mariadb │\s+12,000 │\s+8,000 │\s+\+50\.0 % │\s+439 │\s+7,018 │ yes/);
  assert.match(text, /mysql2\s+│\s+8,000 │\s+8,000 │\s+0\.0 % │\s+7,163 │\s+7,160 │ no/);
  assert.match(text, /mysql .*n\/a: no prepared statements/);
  assert.equal(serverOffer(null, { kind: 'mariadb', version: '10.5.20-MariaDB' }).offered, false);
  assert.equal(serverOffer(null, { kind: 'mariadb', version: '10.11.6-MariaDB' }).offered, true);
  assert.equal(serverOffer(null, { kind: 'mysql', version: '8.0.36' }).offered, false);
  assert.equal(serverOffer({ metadataCache: { offered: false, used: false } }, { kind: 'mariadb', version: '11.4.2' }).offered, false);
});

test('a failed streaming figure or metadata probe fails the run; n/a does not', () => {
  assert.equal(probesFailed({ streaming }), false);
  assert.equal(probesFailed({ streaming: { ...streaming, rows: [...streaming.rows, { status: 'failed', error: 'row 7: payload' }] } }), true);
  assert.equal(probesFailed({ metadata: { drivers: [{ status: 'n/a' }] } }), false);
  assert.equal(probesFailed({ metadata: { drivers: [{ status: 'failed' }] } }), true);
  assert.equal(probesFailed({ streaming: { error: 'cannot fork' } }), true);
  assert.equal(probesFailed({ benches: [] }), false);
  assert.equal(renderSections({ benches: [] }), '');
});

test('a transfer whose replies disagree fails its check', () => {
  const ok = (affectedRows, insertId = 0) => ({ affectedRows, insertId, warningStatus: 0 });
  const good = () => [ok(0), [{ user_id: 5, active: 1 }], [{ account_id: 5, user_id: 5, active: 1 }], [{ account_id: 5, user_id: 6 }], ok(1), ok(1), ok(1, 42), ok(0)];
  assert.doesNotThrow(() => checkTransfer(good()));
  const cases = [
    [(s) => { s[2] = [{ account_id: 5, user_id: 7, active: 1 }]; }, /belongs to user 7, not to the requester 5/],
    [(s) => { s[3] = []; }, /expected 1 rows, got 0/],
    [(s) => { s[5] = ok(0); }, /expected affectedRows 1, got 0/],
    [(s) => { s[7] = ok(1); }, /expected affectedRows 0, got 1/],
    [(s) => { s.pop(); }, /expected 8 replies, got 7/],
    [(s) => { s[1] = [{ user_id: 5, active: 0 }]; }, /requester 5 is not active/],
  ];
  for (const [alter, message] of cases) {
    const steps = good();
    alter(steps);
    assert.throws(() => checkTransfer(steps), (err) => err instanceof CheckError && message.test(err.message));
  }
});

test('every catalogue bench is registered under its stable name', () => {
  const names = BENCHES.map((b) => b.name);
  for (const n of ['select_param', 'select_1_row_mixed', 'select_collations', 'select_random_alias', 'pool_select',
    'pool_select_random_alias', 'stream_rows', 'execute_metadata', 'execute_metadata_changing', 'transfer']) {
    assert.ok(names.includes(n), n);
  }
  assert.equal(new Set(names).size, names.length, 'names are unique');
});
