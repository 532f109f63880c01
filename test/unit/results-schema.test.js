// The published results schema (docs/results.schema.json): results made by the code's own builders
// and real results files pass it, every field says what it means, and readResults (so `compare` and
// `report`) refuses a broken file in one line naming the first offending field, exit 2. No server.
//
// test/fixtures/results/ holds real results files of the current code, benches and rounds trimmed by
// hand: aa-end-to-end (`aa`, mysql2 against itself, default run, 2 of 7 benches, 4 of ~118 rounds),
// smoke-probes (a --smoke run of the three drivers: an n/a row, the transfer bench's workload, the
// streaming and metadata probes), replay-client-cost (--replay, timed) and count-instructions
// (--replay --count instructions, whole). release-history-count is made by hand, not run: a count of
// six mysql2 releases with the figures release-history.test.js takes from issue 53, in
// count-instructions' structure, its Δs by applyDeltas (schema 4: + is more work).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READABLE_SCHEMAS, SCHEMA_VERSION, readResults, resultsValidator, saveResults, serialize, startResults } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { resolveSettings } from '../../lib/resolve-run.js';
import { parseWake } from '../../lib/measuring/host/wake.js';
import { combineClosed } from '../../lib/measuring/figures/combine.js';
import { rowFromWindows } from '../../lib/measuring/run/rows.js';
import { startHealthMonitor } from '../../lib/measuring/host/health.js';
import { hostLoadBetween, readCpuCounters } from '../../lib/measuring/host/host-load.js';
import { planPlacement } from '../../lib/common/placement.js';
import { loadDrivers } from '../../lib/drivers/index.js';
import instructions from '../../lib/replay/counters/instructions.js';
import { hostPlatform } from '../../lib/replay/platform.js';
import { selectBenches } from '../../benchs/index.js';
import { EXIT, UserError } from '../../lib/common/errors.js';
import { main } from '../../lib/cli/index.js';
import { LatencyRecorder } from '../../lib/measuring/driver/latency.js';
import { undescribedFields } from '../helpers/schema.js';

const SCHEMA = JSON.parse(readFileSync(new URL('../../docs/results.schema.json', import.meta.url), 'utf8'));
const FIXTURES = fileURLToPath(new URL('../fixtures/results/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdb-schema-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sink = () => {
  let text = '';
  return { write: (s) => { text += s; return true; }, get text() { return text; }, isTTY: false };
};

/** What the schema says is wrong with `data` (ajv's errors), or [] when it passes. */
function errorsOf(data) {
  const validate = resultsValidator();
  return validate(data) ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message}`);
}

/** A results object after its JSON round trip, as a reader meets it (NaN written as null, undefined dropped). */
const roundTrip = (results) => JSON.parse(serialize(results));

test('the schema is versioned as the code writes and reads results, and says what every field means', () => {
  assert.deepEqual(SCHEMA.properties.schema.enum, READABLE_SCHEMAS);
  assert.ok(READABLE_SCHEMAS.includes(SCHEMA_VERSION));
  assert.equal(SCHEMA.properties.tool.const, 'mysql-driver-bench');
  assert.equal(SCHEMA.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(undescribedFields(SCHEMA), [], 'every field has a description (its meaning and unit)');
});

/** Windows as a driver process reports them (sampler.js), around `opsPerSec`, in `processes` processes. */
const windowsAround = (opsPerSec, rounds = 12, processes = 2) => Array.from({ length: rounds }, (_, r) => {
  const figure = opsPerSec * (1 + ((r % 5) - 2) / 100);
  return { round: r, process: r % processes, opsPerSec: figure, samples: 1, ops: Math.round(figure / 100), opsRun: Math.round(figure / 80), cpuUs: figure / 10, gcMs: r % 3 ? 0 : 0.4, allocatedBytes: Math.round(figure / 100) * 4800, syscw: Math.round(figure / 100), syscr: Math.round(figure / 100), reruns: { leadInStalled: 0, shortSamples: r === 3 ? 1 : 0 }, serverCpuUs: figure / 20 };
});

/** A measured row as a bench's rounds make it (measuring/run/rows.js rowFromWindows), from its windows and its processes' closing reports. */
function measuredRow(driver, opsPerSec, { processes = 2, workload } = {}) {
  const windows = windowsAround(opsPerSec, 12, processes);
  const parts = Array.from({ length: processes }, () => {
    const latencies = new LatencyRecorder();
    for (let i = 0; i < 40; i++) latencies.push(50 + i);
    return { operations: 500, latency: { ...latencies.summary(), histogram: latencies.encode() }, workload, rssMB: 101.5 };
  });
  const rowState = { driver: { name: driver }, protocol: 'text', windows, workers: 1, handles: Array(processes).fill({}), warmupSeconds: Array(processes).fill(0.5) };
  return rowFromWindows(rowState, combineClosed(parts), { concurrency: 1, jitWait: false, rate: null });
}

test("a timed run's results, made by the code's own builders, pass the schema after saving, and readResults reads them", async () => {
  const benches = selectBenches(['do', 'execute']);
  const opts = { drivers: ['mysql', 'mysql2', 'mariadb'], concurrency: 1, wake: parseWake('none'), smoke: false };
  const { settings } = resolveSettings(opts, benches);
  settings.baseline = 'mysql';
  settings.placement = planPlacement('shared', { cpuCount: 2, pinning: true });
  const drivers = await loadDrivers(opts.drivers);
  const results = startResults({ server: { version: '10.11.19-MariaDB', kind: 'mariadb', blackhole: true, bulk: true, embedded: true, storage: 'memory' }, drivers, settings: { ...settings, schema: 'mysql_driver_bench' } });
  const [doBench, execute] = benches;
  results.benches.push({
    name: doBench.name, title: doBench.title, sql: doBench.sql, order: [['mysql', 'mysql2', 'mariadb']],
    results: [measuredRow('mysql', 10000), measuredRow('mysql2', 12000), measuredRow('mariadb', 11000)],
    budgetStop: { rounds: 12, of: 120, budgetS: 3.2 }, hostLoad: hostLoadBetween({ total: 100, steal: 1, iowait: 0 }, { total: 300, steal: 5, iowait: 1 }), concurrency: 1,
  });
  results.benches.push({
    name: execute.name, title: execute.title, sql: execute.sql, order: [],
    results: [
      { driver: 'mysql', protocol: 'n/a', ok: false, status: 'n/a', error: 'no prepared statements in this driver' },
      measuredRow('mysql2', 5000, { processes: 1 }),
      { driver: 'mariadb', protocol: 'binary', ok: false, status: 'failed', error: 'column i3: expected 3, got 4' },
    ],
    hostLoad: null, concurrency: 1,
  });
  const { timeline, ...memory } = startHealthMonitor().stop();
  results.health = { ...memory, threadsConnectedBefore: 1, threadsConnectedAfter: 1, timeline };
  results.host = hostLoadBetween(readCpuCounters(), readCpuCounters());
  results.complete = true;
  const file = saveResults(applyDeltas({ ...results, finishedAt: new Date().toISOString() }), { out: dir });
  assert.deepEqual(errorsOf(JSON.parse(readFileSync(file, 'utf8'))), []);
  const read = readResults(file);
  assert.equal(read.benches[0].deltaReference, 'mysql');
  assert.equal(read.benches[1].results[0].status, 'n/a');
});

test('a run that has only started, and an interrupted one, pass the schema', async () => {
  const benches = selectBenches(['do']);
  const { settings } = resolveSettings({ drivers: ['mysql2'], concurrency: [1, 4], wake: parseWake('spin:1'), smoke: true }, benches);
  settings.baseline = 'mysql2';
  const started = startResults({ server: { version: '8.0.36', kind: 'mysql', blackhole: false, bulk: false, embedded: false }, drivers: await loadDrivers(['mysql2']), settings });
  assert.deepEqual(errorsOf(roundTrip(started)), []);
  started.stoppedBy = 'interrupted by SIGINT';
  started.finishedAt = new Date().toISOString();
  assert.deepEqual(errorsOf(roundTrip(applyDeltas(started))), []);
});

test("a --count instructions run's results pass the schema, its rows carrying count instead of ops/s", async () => {
  const benches = selectBenches(['do']);
  const { settings } = resolveSettings({ drivers: ['mysql2', 'mariadb'], concurrency: 1, wake: parseWake('none'), replay: true }, benches);
  // What a run records with --count instructions (it would first look for valgrind).
  settings.count = { what: 'instructions', valgrind: 'valgrind-3.19.0', valgrindArgs: [...instructions.toolArgs], v8Flags: [...instructions.v8Flags], platform: hostPlatform(instructions), noiseFloorPct: instructions.noiseFloorPct };
  Object.assign(settings.replay, { figure: 'instructions', sets: 2, captured: 0, reused: 2, captureOps: 24, dir: 'results/replay', server: '10.11.19-MariaDB' });
  settings.baseline = 'mysql2';
  settings.placement = planPlacement('none');
  const results = startResults({ server: { version: '10.11.19-MariaDB', kind: 'mariadb', replayed: true }, drivers: await loadDrivers(['mysql2', 'mariadb']), settings });
  const counted = (driver, perOp) => ({ driver, protocol: 'text', ok: true, status: 'ok', error: null, count: { what: 'instructions', perOp, ops: 3 * 16384, warmup: 131072, windows: [perOp * 16384, perOp * 16384 + 900, perOp * 16384 - 400], spreadPct: 0.003 } });
  results.benches.push({ name: 'do', title: benches[0].title, sql: benches[0].sql, order: [], results: [counted('mysql2', 25590), counted('mariadb', 24100)] });
  results.complete = true;
  const file = saveResults(applyDeltas({ ...results, finishedAt: new Date().toISOString() }), { out: dir });
  const read = readResults(file);
  assert.equal(read.resolution, null);
  assert.equal(read.benches[0].results[1].deltaSignificant, true);
  // Written as schema 4 and read as written: mariadb's fewer instructions are below 0.
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).schema, 4);
  assert.equal(read.benches[0].results[1].deltaPct, -5.823);
});

test('real results files pass the schema and go through readResults and `report`', async () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(files, ['aa-end-to-end.json', 'calibrate-count-allocations.json', 'calibrate-count-cycles.json', 'calibrate-count-timed.json', 'count-instructions.json', 'readme-example.json', 'release-history-count.json', 'replay-client-cost.json', 'smoke-probes.json']);
  for (const name of files) {
    const file = join(FIXTURES, name);
    assert.deepEqual(errorsOf(JSON.parse(readFileSync(file, 'utf8'))), [], name);
    assert.equal(readResults(file).tool, 'mysql-driver-bench');
    const stdout = sink();
    const stderr = sink();
    assert.equal(await main(['report', file], { stdout, stderr }), EXIT.OK, `${name}: ${stderr.text}`);
    assert.match(stdout.text, /do|execute/);
  }
});

/** A broken copy of a real results file, saved; `breakIt` changes the parsed copy. */
function broken(name, breakIt) {
  const data = JSON.parse(readFileSync(join(FIXTURES, 'aa-end-to-end.json'), 'utf8'));
  breakIt(data);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

/** readResults refuses `file`: a usage error (exit 2) in one line that matches `message`. */
function assertRefused(file, message) {
  assert.throws(() => readResults(file), (err) => {
    assert.ok(err instanceof UserError, err.stack);
    assert.equal(err.exitCode, EXIT.USAGE);
    assert.equal(err.message.split('\n').length, 1, err.message);
    assert.match(err.message, message);
    return true;
  });
}

test('a broken results file is refused in one line naming the first offending field, exit 2', async () => {
  const stringFigure = broken('string-figure.json', (d) => { d.benches[0].results[1].opsPerSec = '36761'; });
  assertRefused(stringFigure, /^'.*string-figure\.json' is not a valid results file \(docs\/results\.schema\.json\): \/benches\/0\/results\/1\/opsPerSec must be number$/);
  assertRefused(broken('no-benches.json', (d) => { delete d.benches; }), /no-benches\.json' is not a valid results file .*: \/benches is missing$/);
  assertRefused(broken('bad-status.json', (d) => { d.benches[1].results[0].status = 'fine'; }), /: \/benches\/1\/results\/0\/status must be equal to one of the allowed values: "ok", "failed", "n\/a"$/);
  assertRefused(broken('no-figure.json', (d) => { delete d.benches[0].results[0].opsPerSec; }), /: \/benches\/0\/results\/0\/opsPerSec is missing$/);
  assertRefused(broken('bad-ci.json', (d) => { d.benches[0].results[1].deltaCI = '±1.3'; }), /: \/benches\/0\/results\/1\/deltaCI must be array$/);
  // Not ours at all, and a version this code does not read: said as such.
  assertRefused(broken('other-tool.json', (d) => { d.tool = 'hyperfine'; }), /other-tool\.json' is not a mysql-driver-bench results file: \/tool must be equal to constant: "mysql-driver-bench"$/);
  const comparison = join(dir, 'comparison.json');
  writeFileSync(comparison, JSON.stringify({ kind: 'comparison', rows: [] }));
  assertRefused(comparison, /is not a mysql-driver-bench results file: \/tool is missing$/);
  const list = join(dir, 'list.json');
  writeFileSync(list, '[]');
  assertRefused(list, /is not a mysql-driver-bench results file: \(the top level\) must be object$/);
  assertRefused(broken('future.json', (d) => { d.schema = 5; delete d.env; }), /future\.json' has results schema 5; this version reads schemas 1, 2, 3 and 4$/);

  // Through the commands that read results: one line on stderr, exit 2, nothing on stdout.
  for (const args of [['report', stringFigure], ['compare', stringFigure, join(FIXTURES, 'aa-end-to-end.json')]]) {
    const stdout = sink();
    const stderr = sink();
    assert.equal(await main(args, { stdout, stderr }), EXIT.USAGE, stderr.text);
    assert.equal(stderr.text.trim().split('\n').length, 1, stderr.text);
    assert.match(stderr.text, /\/benches\/0\/results\/1\/opsPerSec must be number/);
    assert.equal(stdout.text, '');
  }
});

test('the results files the CLI tests save are checked against the schema when their dirs are removed', async () => {
  const { isolatedDirs, removeIsolatedDirs } = await import('../helpers/cli.js');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { out } = isolatedDirs();
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/2026-11-25T20-00-00-000Z.json`, JSON.stringify({ tool: 'mysql-driver-bench', schema: 2, benches: 'none' }));
  assert.throws(() => removeIsolatedDirs(), /results files refused by docs\/results\.schema\.json: 2026-11-25T20-00-00-000Z\.json: /);
});
