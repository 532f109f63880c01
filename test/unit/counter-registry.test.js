// The counter registry (lib/replay/counters/): a counter registered here by the test alone, never
// shipped, reaches the table, the results JSON (validated by the schema), `report` and `compare`
// with no other file changed. No server, no Valgrind.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { applyDeltas } from '../../lib/results/deltas.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNT_PROCESS, countSettings, counterNamed, registerCounter } from '../../lib/replay/counters/index.js';
import { sandboxRecord } from '../../lib/replay/count-sandbox.js';
import { readResults, resultsProblem, saveResults, serialize } from '../../lib/results/file.js';
import { renderTable } from '../../lib/reporting/table.js';
import { createProgress } from '../../lib/reporting/progress.js';
import { EXIT } from '../../lib/common/errors.js';
import { main } from '../../lib/cli/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-counter-test-'));

// A made-up counter: "widgets" per operation, its own words, floors and record.
const unregister = registerCounter({
  name: 'widgets',
  unit: 'widgets/op',
  shortUnit: 'wdg/op',
  noun: 'widgets',
  counts: 'widget counts',
  perOp: 'widgets per operation',
  title: 'Widgets per operation under a fake tool',
  heading: 'WIDGETS (replay under a fake tool)',
  help: "counts each row's widgets",
  tool: 'fakegrind',
  toolArgs: ['--tool=fakegrind'],
  outputArgs: (d) => [`--fake-out=${d}`],
  v8Flags: ['--predictable'],
  mallocTunables: '',
  noiseFloorPct: 0.5,
  benchFloorsPct: { execute: 4 },
  size: () => ({ warmup: 64, ops: 16 }),
  readWindow: () => ({ figure: 1, jit: 0 }),
  record: () => ({ fakegrind: 'fakegrind-1.0', v8Flags: ['--predictable'] }),
  counting: () => 'each row under fakegrind',
  countedWith: (count) => `counted under ${count.fakegrind}, one process per row`,
  method: (count) => `under ${count.fakegrind}, three windows of N operations each`,
});
after(() => {
  unregister();
  rmSync(dir, { recursive: true, force: true });
});

const sink = () => {
  let text = '';
  return { write: (s) => { text += s; return true; }, get text() { return text; }, isTTY: false };
};

/** A finished --count widgets run over `do`, as the count writes its rows; saved, and its path. */
function savedRun(perOp, name) {
  const row = (driver, n) => ({ driver, protocol: 'text', ok: true, status: 'ok', error: null,
    count: { what: 'widgets', perOp: n, ops: 48, warmup: 64, windows: [16 * n, 16 * n, 16 * n], spreadPct: 0 } });
  const results = {
    schema: 3, tool: 'mysql-driver-bench', startedAt: '2026-11-28T10:00:00.000Z', finishedAt: null, complete: true, stoppedBy: null,
    env: { host: 'h', node: 'v20.20.2', platform: 'linux', release: '6', arch: 'x64', cpuModel: 'cpu', cpus: 2, memoryGiB: 4 },
    server: { version: '10.11.19-MariaDB', kind: 'mariadb', replayed: true },
    drivers: [{ name: 'mysql2', package: 'mysql2', version: '3.24.5', options: {} }, { name: 'mariadb', package: 'mariadb', version: '3.5.4', options: {} }],
    settings: { mode: 'default', concurrency: 1, baseline: 'mysql2', replay: { figure: 'widgets', reused: 2, captured: 0 }, count: countSettings(counterNamed('widgets')) },
    benches: [{ name: 'do', title: 'DO 1', sql: 'DO 1', order: [], results: Object.entries(perOp).map(([driver, n]) => row(driver, n)) }],
  };
  return saveResults(applyDeltas({ ...results, finishedAt: new Date().toISOString() }), { out: dir, json: join(dir, name) }) && join(dir, name);
}

test('a counter registered by a test reaches the table, the JSON (valid by the schema), report and compare', async () => {
  const base = savedRun({ mysql2: 1000, mariadb: 900 }, 'base.json');
  const next = savedRun({ mysql2: 1100, mariadb: 901 }, 'new.json');

  const read = readResults(base);
  assert.equal(resultsProblem(JSON.parse(serialize(read))), null);
  const { platform, ...count } = read.settings.count;
  assert.deepEqual(count, { what: 'widgets', fakegrind: 'fakegrind-1.0', v8Flags: ['--predictable'], threadPool: 1, moduleLoading: process.features.require_module ? 'require' : 'import', process: COUNT_PROCESS, sandbox: sandboxRecord(), noiseFloorPct: 0.5, benchFloorsPct: { execute: 4 } });
  assert.equal(platform.node.version, process.version, 'and the platform it was counted on');
  const mariadb = read.benches[0].results[1];
  assert.deepEqual([mariadb.count.what, mariadb.count.perOp, mariadb.deltaPct, mariadb.deltaSignificant], ['widgets', 900, 11.111, true]);

  const table = renderTable(read);
  assert.match(table, /WIDGETS \(replay under a fake tool\)/);
  assert.match(table, /widgets counted under fakegrind-1\.0, one process per row/);
  assert.match(table, /widgets\/op/);
  assert.match(table, /\+11\.11 % ±0\.5/);
  assert.doesNotMatch(table, /instructions/);

  const progress = sink();
  createProgress(progress, 1).benchDone(read.benches[0], read.benches[0].results);
  assert.match(progress.text, /do +mysql2 1,000 · mariadb 900 widgets\/op/);

  const report = sink();
  assert.equal(await main(['report', base, '--markdown', '-'], { stdout: report, stderr: sink() }), EXIT.OK);
  assert.match(report.text, /### mysql-driver-bench widget counts/);
  assert.match(report.text, /\| bench \| driver \| protocol \| widgets\/op \| ops counted \| window spread \| Δ vs mysql2 \|/);

  const text = sink();
  assert.equal(await main(['compare', base, next, '--threshold', '1'], { stdout: text, stderr: sink() }), EXIT.ROWS_FAILED);
  assert.match(text.text, /base wdg\/op/);
  assert.match(text.text, /change: new widgets\/op ÷ base − 1 \(\+ is more work\)/);
  assert.match(text.text, /REGRESSION/);
  const json = sink();
  await main(['compare', base, next, '--json', '-'], { stdout: json, stderr: sink() });
  const c = JSON.parse(json.text);
  assert.equal(c.kind, 'widgets');
  assert.deepEqual(c.rows.map((r) => [r.driver, r.base, r.next, r.changePct, r.beyondFloor]), [['mysql2', 1000, 1100, 10, true], ['mariadb', 900, 901, 0.111, false]]);

  // An instruction count and a widget count are different figures: never compared.
  const refused = sink();
  const instructions = new URL('../fixtures/results/count-instructions.json', import.meta.url).pathname;
  assert.equal(await main(['compare', instructions, base], { stdout: sink(), stderr: refused }), EXIT.USAGE);
  assert.match(refused.text, /measured instructions, .* widgets: figures of different kinds are not compared/);
});

test('an unknown counter is refused in one line naming the registered ones', () => {
  assert.throws(() => counterNamed('bogus'), (err) => err.exitCode === EXIT.USAGE && /^--count bogus: no such counter; the counters are instructions, cycles, allocations, widgets$/.test(err.message));
  assert.throws(() => registerCounter({ name: 'half' }), /counter half lacks unit, /);
});
