// End to end through the CLI: the whole catalogue in one --smoke run (under two minutes, server start
// included), --concurrency lists with their scaling table, and the transfer options.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_BENCHES } from '../../benchs/index.js';
import { isolatedDirs, leftovers, removeIsolatedDirs, runCli } from '../helpers/cli.js';

after(removeIsolatedDirs);
const DRIVERS = ['mariadb', 'mysql', 'mysql2'];

// How long --smoke takes is a benchmark figure (docs/history/), not asserted here: a busy host
// may take several times as long. The time limit below only catches a hang.
test('--smoke runs every bench on all three drivers, every check passing or n/a', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['--smoke', '--json', '-', '--out', out], { tmp, timeoutMs: 600000 });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.complete, true);
  assert.deepEqual(json.benches.map((b) => b.name), DEFAULT_BENCHES.map((b) => b.name));
  for (const bench of json.benches) {
    assert.deepEqual(bench.results.map((x) => x.driver).sort(), DRIVERS, bench.name);
    for (const row of bench.results) {
      if (row.ok) continue;
      assert.equal(row.status, 'n/a', `${bench.name} ${row.driver}: ${row.error}`);
      assert.ok(/^execute/.test(bench.name) && row.driver === 'mysql', `${bench.name} ${row.driver} n/a: ${row.error}`);
    }
  }
  // The sections the runner cannot express.
  assert.equal(json.streaming.rows.length, json.streaming.sizes.length * DRIVERS.length * 2);
  for (const row of json.streaming.rows) assert.equal(row.ok, true, `streaming ${row.rows} ${row.driver} ${row.mode}: ${row.error}`);
  assert.ok(json.streaming.sizes.includes(100000));
  assert.equal(json.metadata.server.offered, true);
  assert.equal(json.metadata.drivers.find((d) => d.driver === 'mariadb').skips, true);
  for (const row of json.benches.find((b) => b.name === 'transfer').results) {
    assert.ok(row.workload.committed > 0 && Number.isInteger(row.workload.deadlocks), row.driver);
  }
  for (const row of json.benches.find((b) => b.name === 'pool_select').results) assert.deepEqual(row.pool, { size: 1, callers: 1 });
  for (const section of ['transfer · payments', 'streaming · reading N rows', 'prepared-statement metadata']) {
    assert.ok(r.stderr.includes(section), `the table on stderr has the ${section} section`);
  }
  assert.deepEqual(leftovers(tmp), { files: [], processes: [] }, 'no server, probe process or temp directory left behind');
});

test('--concurrency 1,2 repeats the benches at each level and prints a scaling table', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['pool_select', 'transfer', '--smoke', '--concurrency', '1,2', '--transfer-accounts', '300',
    '--drivers', 'mysql2,mariadb', '--baseline', 'mysql2', '--out', out], { tmp });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /scaling · pool_select · ops\/s and p99 latency per level \(level = callers sharing one pool of that size\)/);
  assert.match(r.stdout, /ops\/s @1 │ p99 µs @1 │ ops\/s @2 │ p99 µs @2/);
  assert.match(r.stdout, /scaling · transfer/);
  assert.match(r.stdout, /transfer · payments transactions \(8 statements each\) on 300 accounts/);
  assert.match(r.stdout, /│\s+2 │ (mysql2|mariadb)/, 'the transfer section has a row for 2 workers');
});

test('--concurrency refuses a bad list before starting anything', async () => {
  const { tmp, out } = isolatedDirs();
  for (const bad of ['0,4', '1,1', '4,x']) {
    const r = await runCli(['do', '--concurrency', bad, '--out', out], { tmp });
    assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--concurrency/);
  }
});
