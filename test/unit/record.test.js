// The record (results/record.js, `record`): the releases a record lacks and the one counted with them,
// a count run's figures merged under instructions or bytes, the steps recomputed from the releases with
// the run's functions, the file a line a release, its size bounded; the command with a stand-in for
// the count runs and the registry: a first build, then a rerun that counts the new release alone (with
// the one before it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { registerRecord } from '../../lib/cli/commands/record.js';
import { gitIn, makeDriverRepo } from '../helpers/driver-repo.js';
import { RECORD_CEILING_BYTES, emptyRecord, mergeCount, mergeRecords, missingReleases, recordSteps, releaseSlices, serializeRecord } from '../../lib/results/record.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-record-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SEVEN = ['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute'];

/** A count run's results over releases of mysql2: perOp(version, bench) per row; stepFunctions as given. */
function countRun(versions, perOp, { what = 'instructions', stepFunctions } = {}) {
  return {
    env: { node: 'v20.20.2', harness: '1.1.0' }, server: { version: '10.11.19-MariaDB' },
    drivers: versions.map((v) => ({ name: `mysql2@${v}`, package: 'mysql2', version: v })),
    settings: { count: { what, noiseFloorPct: 0.1, benchFloorsPct: { execute: 0.5 } } },
    benches: SEVEN.map((name) => ({ name, results: versions.map((v) => (perOp(v, name) === null
      ? { driver: `mysql2@${v}`, ok: false, status: 'failed', error: 'cannot install' }
      : { driver: `mysql2@${v}`, ok: true, status: 'ok', count: { perOp: perOp(v, name) } })) })),
    ...(stepFunctions ? { stepFunctions } : {}),
  };
}

// execute doubles at 3.23.1 and halves back at 3.24.0, as node-mysql2's did; the rest stay.
const EXECUTE = { '3.22.6': 2112406, '3.23.0': 2168628, '3.23.1': 4009341, '3.23.2': 4009300, '3.24.0': 2000000, '3.24.1': 2000100 };
const perOp = (v, bench) => (bench === 'execute' ? EXECUTE[v] : 100000);

test('what a record lacks: the missing releases from the first, at most --limit, and the one it holds before them', () => {
  const published = ['3.22.6', '3.23.0', '3.23.1', '3.23.2', '3.24.0'];
  assert.deepEqual(missingReleases(emptyRecord('mysql2'), published, { from: '3.23.0' }), { missing: ['3.23.0', '3.23.1', '3.23.2', '3.24.0'], before: null });
  const held = { ...emptyRecord('mysql2'), releases: [{ version: '3.23.0' }, { version: '3.23.1' }] };
  assert.deepEqual(missingReleases(held, published, { from: '3.23.0' }), { missing: ['3.23.2', '3.24.0'], before: '3.23.1' });
  assert.deepEqual(missingReleases(held, published, { from: '3.23.0', limit: 1 }), { missing: ['3.23.2'], before: '3.23.1' });
  assert.deepEqual(missingReleases(held, published, { from: '3.23.0', to: '3.23.1' }), { missing: [], before: null });
});

test('a run merged under its counter; steps beyond each bench\'s floor, with the functions of the run that held both releases; a failed row said', () => {
  const fns = { execute: { '3.23.0→3.23.1': [{ name: 'v8::internal::JSObject::MigrateToMap(int)', where: 'node', deltaPerOp: 363000 }] } };
  let record = mergeCount(emptyRecord('mysql2'), 'instructions', countRun(['3.22.6', '3.23.0', '3.23.1'], perOp, { stepFunctions: fns }));
  record = mergeCount(record, 'bytes', countRun(['3.22.6', '3.23.0', '3.23.1'], (v, b) => (v === '3.22.6' && b === 'do' ? null : 5000), { what: 'allocations' }));
  assert.deepEqual(record.releases.map((r) => r.version), ['3.22.6', '3.23.0', '3.23.1']);
  assert.equal(record.releases[2].instructions.execute, 4009341);
  assert.deepEqual(record.releases[0].failed, { bytes: { do: 'cannot install' } });
  assert.deepEqual(record.floors.instructions.execute, 0.5);
  assert.deepEqual(record.counted.instructions, { server: '10.11.19-MariaDB', node: 'v20.20.2', harness: '1.1.0' });
  const steps = recordSteps(record);
  assert.deepEqual(steps.map((s) => `${s.key} ${s.bench} ${s.from}→${s.to} ${s.changePct.toFixed(1)}`), ['instructions execute 3.22.6→3.23.0 2.7', 'instructions execute 3.23.0→3.23.1 84.9']);
  assert.equal(steps[1].functions[0].deltaPerOp, 363000);
  assert.equal(steps[0].functions, null);
  // One line a release: a new release is a line's diff.
  const text = serializeRecord(record);
  assert.deepEqual(JSON.parse(text), record);
  assert.equal(text.split('\n').filter((l) => l.startsWith('    {"version"')).length, 3);
});

test('the record of three drivers\' every release stays within its ceiling', () => {
  // 120 releases of mysql2, 40 of mariadb, 20 of mysql, every bench a step with three long function names.
  let total = 0;
  for (const [driver, n] of [['mysql2', 120], ['mariadb', 40], ['mysql', 20]]) {
    const versions = Array.from({ length: n }, (_, i) => `3.${Math.floor(i / 10)}.${i % 10}`);
    const fns = Object.fromEntries(SEVEN.map((b) => [b, Object.fromEntries(versions.slice(1).map((v, i) => [`${versions[i]}→${v}`, Array.from({ length: 3 }, () => ({ name: 'v8::internal::LookupIterator::LookupInRegularHolder<false>(v8::internal::Map, v8::internal::JSReceiver)', where: '<driver>/lib/parsers/binary_parser.js:123', deltaPerOp: 123456 }))]))]));
    let record = mergeCount(emptyRecord(driver), 'instructions', countRun(versions, (v) => 1e6 * (1 + versions.indexOf(v) / 50), { stepFunctions: fns }));
    record = mergeCount(record, 'bytes', countRun(versions, (v) => 1e5 * (1 + versions.indexOf(v) / 50), { what: 'allocations' }));
    total += Buffer.byteLength(serializeRecord(record));
  }
  assert.ok(total < RECORD_CEILING_BYTES, `${total} bytes`);
});

test('record: a first build counts every release from --from, a rerun only the new one with the one before it', async () => {
  const recordDir = join(dir, 'record');
  let published = ['3.22.6', '3.23.0', '3.23.1', '3.23.2', '3.24.0'];
  const runs = [];
  const record = async (args) => {
    const said = { stdout: '', stderr: '', code: null };
    const program = new Command().exitOverride();
    registerRecord(program, {
      stdout: { write: (s) => { said.stdout += s; return true; } },
      stderr: { write: (s) => { said.stderr += s; return true; } },
      env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache') },
      setExitCode: (c) => { said.code = c; },
      versionsOf: async () => [...published, '3.25.0-rc.1'],
      runRows: async (asked) => {
        runs.push(asked);
        const [from, to] = asked.drivers[0].replace('mysql2@', '').split('..');
        const versions = published.filter((v) => v >= from && v <= to);
        return { code: 0, results: countRun(versions, asked.count === 'allocations' ? () => 5000 : perOp, { what: asked.count }) };
      },
    });
    await program.parseAsync(['record', 'mysql2', '--dir', recordDir, '--from', '3.22.6', '--no-timed', ...args], { from: 'user' });
    return said;
  };
  const first = await record([]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(runs.map((asked) => [asked.drivers.join(), asked.count]), [['mysql2@3.22.6..3.24.0', 'instructions'], ['mysql2@3.22.6..3.24.0', 'allocations']]);
  assert.deepEqual(runs[0].benches, SEVEN, 'the design benches');
  assert.match(first.stdout, /^mysql2: 5 releases, 3 steps; 3 new:\n {2}execute instructions: 3\.22\.6 → 3\.23\.0 \+2\.7 %\n {2}execute instructions: 3\.23\.0 → 3\.23\.1 \+84\.9 %\n {2}execute instructions: 3\.23\.2 → 3\.24\.0 -50\.1 %\n$/);
  const file = join(recordDir, 'mysql2.json');
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).releases.length, 5);

  runs.length = 0;
  const none = await record([]);
  assert.deepEqual(runs, [], 'nothing new: nothing counted');
  assert.match(none.stderr, /the record holds every release from 3\.22\.6 \(5\): nothing to count/);

  published = [...published, '3.24.1'];
  const rerun = await record(['--no-bytes']);
  assert.deepEqual(runs.map((asked) => asked.drivers.join()), ['mysql2@3.24.0..3.24.1'], 'the new release, with the one before it');
  assert.match(rerun.stderr, /mysql2: 1 release to add \(3\.24\.1 … 3\.24\.1\), counted with 3\.24\.0, the one before them/);
  assert.match(rerun.stdout, /^mysql2: 6 releases, 3 steps; no new step\n$/);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).releases.length, 6);
  assert.ok(statSync(file).size < 10000);

  writeFileSync(join(recordDir, 'mariadb.json'), '{"format":"something else"}');
  await assert.rejects(record(['--limit', '0']), /--limit must be a whole number of at least 1/);
  await assert.rejects(record(['--no-count']), /--no-count counts nothing and --site was not given/);
  const other = async () => { const p = new Command().exitOverride(); registerRecord(p, { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, setExitCode: () => {}, versionsOf: async () => published, runRows: async () => ({ code: 0, results: null }) }); await p.parseAsync(['record', 'mariadb', '--dir', recordDir], { from: 'user' }); };
  await assert.rejects(other(), /mariadb\.json is not mariadb's record/);
});

test('record --repo: each new step bisected between its release tags, its commit kept; a step without tags says why', async () => {
  const repo = makeDriverRepo(join(dir, 'node-mysql2'));
  gitIn(repo.dir, 'tag', 'v3.23.0');
  const culprit = repo.commit('fix(parser): call typeCast for NULL values', { 'lib/parsers/string.js': (t) => `${t}\n// typeCast\n` });
  gitIn(repo.dir, 'tag', 'v3.23.1');
  const bisects = [];
  const program = new Command().exitOverride();
  let stdout = '';
  registerRecord(program, {
    stdout: { write: (s) => { stdout += s; return true; } }, stderr: { write: () => true },
    env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache2') }, setExitCode: () => {},
    versionsOf: async () => ['3.22.6', '3.23.0', '3.23.1'],
    bisect: async (repoDir, asked) => {
      bisects.push([asked.good, asked.bad, asked.bench, asked.count]);
      mkdirSync(dirname(asked.json), { recursive: true });
      writeFileSync(asked.json, JSON.stringify({ answer: { found: true, commit: culprit, subject: 'fix(parser): call typeCast for NULL values' } }));
      return 0;
    },
    runRows: async (asked) => ({ code: 0, results: countRun(['3.22.6', '3.23.0', '3.23.1'], perOp, { what: asked.count }) }),
  });
  await program.parseAsync(['record', 'mysql2', '--dir', join(dir, 'record-repo'), '--from', '3.22.6', '--no-bytes', '--no-timed', '--bisect-min', '0', '--repo', `mysql2=${repo.dir}`], { from: 'user' });
  assert.deepEqual(bisects, [['v3.23.0', 'v3.23.1', 'execute', 'instructions']], 'the step with both tags, on its bench and counter');
  const kept = JSON.parse(readFileSync(join(dir, 'record-repo', 'mysql2.json'), 'utf8')).commits;
  assert.deepEqual(kept['instructions:execute:3.23.0→3.23.1'], { commit: culprit, subject: 'fix(parser): call typeCast for NULL values' });
  assert.deepEqual(kept['instructions:execute:3.22.6→3.23.0'], { why: 'no tag 3.22.6 in the repository' });
  assert.match(stdout, new RegExp(`execute instructions: 3\\.23\\.0 → 3\\.23\\.1 \\+84\\.9 % \\[${culprit.slice(0, 7)} fix\\(parser\\): call typeCast for NULL values\\]`));
});

test('record: a step of 10 % or more is timed in a replay of its two releases, and the newest releases side by side once', async () => {
  const recordDir = join(dir, 'record-timed');
  const runs = [];
  const record = async () => {
    let stderr = '';
    const program = new Command().exitOverride();
    registerRecord(program, {
      stdout: { write: () => true }, stderr: { write: (s) => { stderr += s; return true; } },
      env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache3') }, setExitCode: () => {},
      versionsOf: async (driver) => (driver === 'mysql2' ? ['3.22.6', '3.23.0', '3.23.1'] : ['2.18.1']),
      runRows: async (asked) => {
        runs.push(asked);
        const [drivers] = asked.drivers;
        if (drivers.includes('..')) {
          const [from, to] = drivers.replace(/^\w+@/, '').split('..');
          const versions = drivers.startsWith('mysql2') ? ['3.22.6', '3.23.0', '3.23.1'].filter((v) => v >= from && v <= to) : [from];
          const results = countRun(versions, perOp, { what: asked.count });
          if (drivers.startsWith('mysql@')) for (const d of results.drivers) Object.assign(d, { name: `mysql@${d.version}`, package: 'mysql' });
          if (drivers.startsWith('mysql@')) for (const b of results.benches) for (const r of b.results) r.driver = 'mysql@2.18.1';
          return { code: 0, results };
        }
        // A timed run: each listed driver a row (the first the baseline), ops/s falling by half at 3.23.1.
        const results = { settings: { baseline: asked.drivers[0] }, finishedAt: '2026-11-29T12:00:00Z', env: { node: 'v20.20.2', cpus: 2 }, server: { version: '10.11.19' },
          benches: asked.benches.map((name) => ({ name, results: asked.drivers.map((d, i) => ({ driver: d, ok: true, opsPerSec: 1000 / (i + 1), deltaPct: i ? -50 : 0, deltaSignificant: i > 0 })) })) };
        return { code: 0, results };
      },
    });
    await program.parseAsync(['record', 'mysql2', 'mysql', '--dir', recordDir, '--from', '2.18.1', '--no-bytes'], { from: 'user' });
    return stderr;
  };
  const said = await record();
  const timed = runs.filter((asked) => !asked.drivers[0].includes('..'));
  assert.deepEqual(timed.map((asked) => [asked.benches, asked.drivers.join(), asked.replay !== false]), [
    [['execute'], 'mysql2@3.23.0,mysql2@3.23.1', true],
    [SEVEN, 'mysql@2.18.1,mysql2@3.23.1', false],
  ], 'the +84.9 % step (not the +2.7 %) in a replay; the newest releases against a server');
  assert.match(said, /mysql2: 3\.23\.0 → 3\.23\.1 timed \(\d+ s\): execute -50 % ops\/s\n/);
  const kept = JSON.parse(readFileSync(join(recordDir, 'mysql2.json'), 'utf8'));
  assert.deepEqual(kept.timed, { 'execute:3.23.0→3.23.1': { opsPerSecPct: -50, significant: true, agrees: true } });
  const latest = JSON.parse(readFileSync(join(recordDir, 'latest.json'), 'utf8'));
  assert.deepEqual(latest.versions, { mysql2: '3.23.1', mysql: '2.18.1' });
  assert.deepEqual(latest.benches.execute, { mysql: { opsPerSec: 1000, deltaPct: 0, significant: false }, mysql2: { opsPerSec: 500, deltaPct: -50, significant: true } });

  runs.length = 0;
  await record();
  assert.deepEqual(runs, [], 'a rerun with nothing new counts and times nothing');
});

test("a matrix's release slices: each starts at the release before it, and their records join into one", async () => {
  assert.deepEqual(releaseSlices({ missing: ['3.0.0', '3.0.1', '3.1.0', '3.1.1', '3.2.0'], before: null }, 2),
    [{ from: '3.0.0', to: '3.1.0', releases: 3 }, { from: '3.1.0', to: '3.2.0', releases: 3 }]);
  assert.deepEqual(releaseSlices({ missing: ['3.24.1'], before: '3.24.0' }, 4), [{ from: '3.24.0', to: '3.24.1', releases: 2 }]);
  assert.deepEqual(releaseSlices({ missing: [], before: '2.18.0' }, 4), []);
  assert.deepEqual(releaseSlices({ missing: ['2.18.0', '2.18.1'], before: null }, 2), [{ from: '2.18.0', to: '2.18.1', releases: 2 }], 'no slice of one release');

  const slice = (versions) => mergeCount(emptyRecord('mysql2'), 'instructions', countRun(versions, perOp));
  const [a, b] = [slice(['3.22.6', '3.23.0', '3.23.1']), slice(['3.23.1', '3.23.2', '3.24.0'])];
  const { record } = mergeRecords(a, b);
  assert.deepEqual(record.releases.map((r) => r.version), ['3.22.6', '3.23.0', '3.23.1', '3.23.2', '3.24.0']);
  assert.deepEqual(recordSteps(record).map((s) => `${s.from}→${s.to}`), ['3.22.6→3.23.0', '3.23.0→3.23.1', '3.23.2→3.24.0']);
  assert.match(mergeRecords(a, { ...b, counted: { instructions: { ...b.counted.instructions, node: 'v22.0.0' } } }).error, /not comparable/);
  assert.match(mergeRecords(a, { ...b, driver: 'mariadb' }).error, /cannot be joined/);

  // The command: slices' files joined into --dir, with no count.
  const [sliceDir, recordDir] = [join(dir, 'slices'), join(dir, 'record-merged')];
  mkdirSync(sliceDir, { recursive: true });
  writeFileSync(join(sliceDir, 'a.json'), serializeRecord(a));
  writeFileSync(join(sliceDir, 'b.json'), serializeRecord(b));
  writeFileSync(join(sliceDir, 'c.json'), '{"format":"other"}');
  const merge = async (files) => {
    const program = new Command().exitOverride();
    registerRecord(program, { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, setExitCode: () => {}, versionsOf: async () => [], runRows: async () => { throw new Error('nothing is counted'); } });
    await program.parseAsync(['record', '--dir', recordDir, '--no-count', '--merge', ...files.map((f) => join(sliceDir, f))], { from: 'user' });
  };
  await merge(['a.json', 'b.json']);
  assert.equal(JSON.parse(readFileSync(join(recordDir, 'mysql2.json'), 'utf8')).releases.length, 5);
  await assert.rejects(merge(['c.json']), /c\.json: not a record \(format other\)/);
});

test('record --plan: the releases the records lack, as a matrix of slices shared by how many each driver lacks', async () => {
  const recordDir = join(dir, 'record-plan');
  mkdirSync(recordDir, { recursive: true });
  writeFileSync(join(recordDir, 'mysql2.json'), serializeRecord(mergeCount(emptyRecord('mysql2'), 'instructions', countRun(['3.22.6', '3.23.0'], perOp))));
  let stdout = '';
  const program = new Command().exitOverride();
  registerRecord(program, {
    stdout: { write: (s) => { stdout += s; return true; } }, stderr: { write: () => true }, env: {}, setExitCode: () => {},
    versionsOf: async (d) => (d === 'mysql2' ? ['3.22.6', '3.23.0', '3.23.1', '3.23.2', '3.24.0', '3.24.1', '3.24.2'] : ['3.0.0', '3.0.1']),
    runRows: async () => { throw new Error('nothing is counted'); },
  });
  await program.parseAsync(['record', 'mysql2', 'mariadb', '--dir', recordDir, '--plan', '3'], { from: 'user' });
  assert.deepEqual(JSON.parse(stdout).include, [
    { driver: 'mysql2', from: '3.23.0', to: '3.24.0', releases: 4 },
    { driver: 'mysql2', from: '3.24.0', to: '3.24.2', releases: 3 },
    { driver: 'mariadb', from: '3.0.0', to: '3.0.1', releases: 2 },
  ]);
});

test('record: a count a signal stopped part-way adds nothing to the record, and nothing runs after it', async () => {
  const recordDir = join(dir, 'record-stopped');
  const runs = [];
  let code = null;
  let stderr = '';
  const program = new Command().exitOverride();
  registerRecord(program, {
    stdout: { write: () => true }, stderr: { write: (s) => { stderr += s; return true; } },
    env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache4') }, setExitCode: (c) => { code = c; },
    versionsOf: async () => ['3.22.6', '3.23.0', '3.23.1'],
    runRows: async (asked) => {
      runs.push(asked);
      // SIGTERM half-way: the run saves what it counted, marked incomplete, and exits 143.
      return { code: 143, results: { ...countRun(['3.22.6', '3.23.0'], perOp, { what: asked.count }), complete: false, stoppedBy: 'interrupted by SIGTERM' } };
    },
  });
  await program.parseAsync(['record', 'mysql2', 'mysql', '--dir', recordDir, '--from', '3.22.6'], { from: 'user' });
  assert.equal(code, 143);
  assert.equal(runs.length, 1, 'no bytes count, no timed run, no other driver');
  assert.match(stderr, /mysql2: the instructions count stopped \(exit 143\): the record is left as it was/);
  assert.ok(!existsSync(join(recordDir, 'mysql2.json')), 'no record written from a part-way count');
});
