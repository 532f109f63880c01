// The record's page (`record --no-count --site`), built from a record made of two count runs' results
// (mysql2 3.22.6 to 3.23.1, the 3.23.1 step on execute with its commit and functions), opened in
// Debian's chromium, headless: no message on its console (a copy with a broken script has one, so the
// check can fail), every chart drawn, the step with its commit link and functions, and the upgrade
// filter run by the page's script.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyRecord, latestTimed, mergeCount, serializeRecord, stepKey, withCommit, withTimed } from '../../lib/results/record.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-record-site-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SEVEN = ['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute'];
const VERSIONS = ['3.22.6', '3.23.0', '3.23.1'];
const EXECUTE = { '3.22.6': 2112305, '3.23.0': 2169387, '3.23.1': 4009481 };
const CULPRIT = '01f10926baec7dffd73629feebbb56e98e616782';

const run = (what, perOp, stepFunctions) => ({
  env: { node: 'v20.20.2', harness: { version: '1.1.0' } }, server: { version: '10.11.19-MariaDB' },
  drivers: VERSIONS.map((v) => ({ name: `mysql2@${v}`, package: 'mysql2', version: v })),
  settings: { count: { what, noiseFloorPct: 0.1, benchFloorsPct: { execute: 0.5 } } },
  benches: SEVEN.map((name) => ({ name, results: VERSIONS.map((v) => ({ driver: `mysql2@${v}`, ok: true, status: 'ok', count: { perOp: perOp(v, name) } })) })),
  ...(stepFunctions ? { stepFunctions } : {}),
});

/** Debian's chromium, headless, on a file: its DOM after the scripts ran, and its console lines. */
function openHeadless(file, hash = '') {
  const r = spawnSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--enable-logging=stderr', '--v=0', '--dump-dom', `file://${file}${hash}`], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  return { dom: r.stdout, console: r.stderr.split('\n').filter((l) => /:CONSOLE[:(]/.test(l)) };
}

test('the record page in headless chromium: no console message, its charts, the 3.23.1 step with its commit and functions, the upgrade filter', async () => {
  const records = join(dir, 'record');
  mkdirSync(records, { recursive: true });
  const fns = { execute: { '3.23.0→3.23.1': [{ name: 'v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*, int)', where: 'node', deltaPerOp: 363000 }] } };
  let record = mergeCount(emptyRecord('mysql2'), 'instructions', run('instructions', (v, b) => (b === 'execute' ? EXECUTE[v] : 100000), fns));
  record = mergeCount(record, 'bytes', run('allocations', (v, b) => (b === 'execute' && v === '3.23.1' ? 287396 : 174553)));
  record = withCommit(record, stepKey('instructions', 'execute', '3.23.0', '3.23.1'), { commit: CULPRIT, subject: 'fix(parser): call typeCast for NULL values in the binary protocol' });
  // The step's timed replay, and a timed run of the newest releases beside mysql's.
  const timedRun = (rows) => ({ settings: { baseline: rows[0][0] }, finishedAt: '2026-11-29T12:00:00Z', env: { node: 'v20.20.2', cpus: 2 }, server: { version: '10.11.19-MariaDB' },
    benches: SEVEN.map((name) => ({ name, results: rows.map(([driver, opsPerSec, deltaPct]) => ({ driver, ok: true, opsPerSec, deltaPct, deltaSignificant: deltaPct !== 0 })) })) });
  record = withTimed(record, { from: '3.23.0', to: '3.23.1', benches: ['execute'] }, timedRun([['mysql2@3.23.0', 9000, 0], ['mysql2@3.23.1', 4050, -55]]));
  writeFileSync(join(records, 'mysql2.json'), serializeRecord(record));
  writeFileSync(join(records, 'latest.json'), JSON.stringify(latestTimed(timedRun([['mysql@2.18.1', 5000, 0], ['mysql2@3.23.1', 6100, 22]]), { mysql: '2.18.1', mysql2: '3.23.1' })));
  const site = join(dir, 'site');
  const built = await runCli(['record', '--no-count', '--dir', records, '--site', site]);
  assert.equal(built.code, 0, built.stderr);
  assert.match(built.stderr, /the record of mysql2 written to .*index\.html/);

  const page = openHeadless(join(site, 'index.html'));
  assert.deepEqual(page.console, [], 'no console message');
  assert.equal((page.dom.match(/<svg class="chart history"/g) ?? []).length, 14, 'a chart per bench and counter');
  const step = page.dom.split('<tr').find((row) => row.includes('3.23.0 → 3.23.1') && row.includes('instructions/op') && row.includes('<td>execute'));
  assert.ok(step, 'the 3.23.0 → 3.23.1 step on execute');
  assert.match(step, /\+84\.8 %/);
  assert.match(step, new RegExp(`<a href="https://github\\.com/sidorares/node-mysql2/commit/${CULPRIT}">01f1092</a> fix\\(parser\\): call typeCast`));
  assert.match(step, /v8::internal::JSObject::MigrateToMap \+363,000/);
  assert.match(step, /<td>-55\.0 % ops\/s, confirmed<\/td>/, "the step's timed replay");
  const timed = page.dom.split('<table class="timed">')[1].split('</table>')[0];
  assert.match(timed, /<th>mysql 2\.18\.1<\/th><th>mysql2 3\.23\.1<\/th>/);
  assert.match(timed, /<tr><td>execute<\/td><td>5,000<\/td><td>6,100 <span class="vs">\+22\.0 %<\/span><\/td><\/tr>/, 'ops/s and the Δ against mysql');
  assert.match(page.dom, /The latest releases side by side/);
  assert.match(page.dom, /<select class="from" data-driver="mysql2">/);

  // The upgrade filter: from 3.23.0, the step out of 3.22.6 is not crossed.
  const rowOf = (dom, from) => dom.split('<table class="upgrade"')[1].split('</table>')[0].split('<tr').find((r) => r.includes(`data-from="${from}"`));
  assert.doesNotMatch(rowOf(page.dom, '3.22.6'), /hidden/);
  const upgrade = openHeadless(join(site, 'index.html'), '#mysql2=3.23.0');
  assert.match(rowOf(upgrade.dom, '3.22.6'), /^ data-from="3\.22\.6" hidden=""/);
  assert.doesNotMatch(rowOf(upgrade.dom, '3.23.0'), /hidden/);

  // The console check can fail: a page whose script throws.
  const broken = join(site, 'broken.html');
  writeFileSync(broken, readFileSync(join(site, 'index.html'), 'utf8').replace('<script>', '<script>notDefined();'));
  assert.match(openHeadless(broken).console.join('\n'), /Uncaught ReferenceError: notDefined is not defined/);
});
