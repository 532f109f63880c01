// The gate's pull-request comment and artifact (ci-driver --comment, --artifact), without Valgrind: the
// renderer on synthetic count results (one line when nothing moved; else the verdict, the table with
// each bench's floor, the functions that moved, the profile command), the artifact copied from a
// synthetic --out, and ci-driver's handler with a stand-in for the run, whose comment's profile
// command reads the artifact it copied and whose rows are the head and its merge-base with --base
// (the three commits named, and kept in the results file); the same gate counted with allocations.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Command } from 'commander';
import { driverVerdict } from '../../lib/gate.js';
import { registerCiDriver } from '../../lib/cli/commands/ci-driver.js';
import { GATE_COMMENT_MARKER, NOTHING_MOVED_MARKER, NOT_THE_DRIVER, columnsText, driverSharePct, fmtWallTime, functionPlace, gateRows, movedColumns, judgedChange, oneUnsettled, renderGateComment, shortFunctionName, unsettledBenches } from '../../lib/reporting/gate-comment.js';
import { checkArtifactDir, copyArtifact } from '../../lib/results/artifact.js';
import { countDeltaPct, countFloorPct } from '../../lib/results/counts.js';
import { profilePath, windowFile } from '../../lib/replay/profiles.js';
import { resultsValidator } from '../../lib/results/file.js';
import { makeBranchedRepo, makeDriverRepo } from '../helpers/driver-repo.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(root, 'bin', 'mysql-driver-bench.js');
const dir = mkdtempSync(join(tmpdir(), 'mdb-gate-comment-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURE = JSON.parse(readFileSync(join(root, 'test/fixtures/results/count-instructions.json'), 'utf8'));
const SEVEN = ['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute'];
const label = (sha) => `mysql2@3.24.5+${sha.slice(0, 7)}`;
const OPS = 1000;

/**
 * A ci-driver run's results as `run` writes them (schema-valid): the base and the head commit as two
 * git rows, each bench's counts per operation from `perOp` ({ bench: [base, head] }, a null count a
 * failed row), the noise floor 0.05 % (select_1000_rows: 0.2 %), each row's profile path, its windows'
 * spread from `spreads` ({ bench: [base, head] }, 0.01 % where not given).
 */
function countResults({ base, head, perOp, spreads = {}, startedAt = '2026-11-28T10:00:00.000Z' }) {
  const { schema } = resultsValidator().schema.properties;
  const count = { ...FIXTURE.settings.count, noiseFloorPct: 0.05, benchFloorsPct: { select_1000_rows: 0.2 } };
  const driver = (sha) => ({ ...FIXTURE.drivers[0], name: label(sha), git: { repository: '/r', ref: sha, commit: sha } });
  const row = (bench, sha, n, ref) => {
    if (n === null) return { driver: label(sha), protocol: 'text', ok: false, status: 'failed', error: 'wrong rows', deltaPct: null, deltaSignificant: null };
    const deltaPct = sha === base ? 0 : countDeltaPct(ref, n);
    return {
      driver: label(sha), protocol: 'text', ok: true, status: 'ok', error: null, deltaPct,
      deltaSignificant: sha === base ? null : Math.abs(deltaPct) > countFloorPct(count, bench),
      count: { what: 'instructions', perOp: n, ops: OPS, warmup: 64, windows: [n * OPS], spreadPct: spreads[bench]?.[sha === base ? 0 : 1] ?? 0.01, profile: profilePath(startedAt, bench, label(sha)) },
    };
  };
  return {
    ...FIXTURE,
    schema: Math.max(...schema.enum),
    startedAt,
    drivers: [driver(base), driver(head)],
    settings: { ...FIXTURE.settings, drivers: [label(base), label(head)], baseline: label(base), benches: Object.keys(perOp), count },
    benches: Object.entries(perOp).map(([name, [b, h]]) => ({
      ...FIXTURE.benches[0], name, deltaReference: label(base), results: [row(name, base, b, b), row(name, head, h, b)],
    })),
  };
}

/**
 * countResults counted with allocations (bytes allocated per operation): settings.count names the
 * counter, each row's count holds its writes and bytes each way per operation (`writes`: { bench:
 * [base, head] }, 1 where not given) and no profile.
 */
function allocationResults({ base, head, perOp, writes = {} }) {
  const results = countResults({ base, head, perOp });
  const { valgrind, valgrindArgs, ...count } = results.settings.count;
  results.settings.count = { ...count, what: 'allocations', node: process.version, meter: 'the heap around each window' };
  for (const bench of results.benches) {
    bench.results.forEach((row, i) => {
      if (!row.count) return;
      delete row.count.profile;
      row.count.what = 'allocations';
      row.count.events = { writes: writes[bench.name]?.[i] ?? 1, bytesSent: 17, bytesReceived: 11, collections: 0.01 };
    });
  }
  return results;
}

const BASE = 'a'.repeat(40);
const HEAD = 'c'.repeat(40);
const who = { threshold: 1, base: { label: label(BASE), commit: BASE }, head: { label: label(HEAD), commit: HEAD } };
const steady = Object.fromEntries(SEVEN.map((b, i) => [b, [10000 + i * 1000, 10000 + i * 1000 + 3]]));

test('the results the tests make are valid results files', () => {
  const check = resultsValidator();
  assert.ok(check(countResults({ base: BASE, head: HEAD, perOp: steady })), JSON.stringify(check.errors?.[0]));
});

const DOCS = 'https://github.com/o/mysql-driver-bench/blob/v9.9.9/docs/';

test('nothing moved: one line, with the benches and the wall time, then the markers', () => {
  const results = countResults({ base: BASE, head: HEAD, perOp: steady });
  const verdict = driverVerdict(results, who);
  assert.equal(renderGateComment(results, { verdict, ...who, wallMs: 112_400, docs: DOCS }),
    `✅ Nothing moved: no bench needs more than 1 % more instructions per operation than the base (7 benches, 1 min 52 s).\n\n${NOTHING_MOVED_MARKER}\n${GATE_COMMENT_MARKER}\n`);
  assert.deepEqual([fmtWallTime(52_000), fmtWallTime(586_000), fmtWallTime(3_790_000)], ['52 s', '9 min 46 s', '1 h 3 min']);
});

test('a bench moved: the verdict, base and head, the change (+ is more) and each floor, the functions that moved, the profile command', () => {
  const perOp = { ...steady, do: [99079, 102302], select_1000_rows: [500000, 480000], insert: [20000, 20100] };
  const results = countResults({ base: BASE, head: HEAD, perOp });
  const verdict = driverVerdict(results, who);
  const functions = {
    do: [{ name: 'Connection.query', where: '<driver>/lib/base/connection.js:705', deltaPerOp: 3100 }, { name: 'Packet.parse', where: 'node_modules/mysql2/lib/packets/packet.js:40', deltaPerOp: -40 }],
    select_1000_rows: [{ name: 'v8::internal::Sweeper::RawSweep', where: 'node', deltaPerOp: -20000 }, { name: 'Builtins_LoadIC', where: 'node', deltaPerOp: 300 }],
    insert: [{ name: 'never shown', deltaPerOp: 100 }],
  };
  const artifact = { name: 'mysql-driver-bench-42-1', run: { id: '42', repository: 'o/driver' }, path: 'mysql-driver-bench-42-1/ci-driver-aaaaaaa-ccccccc-1.json' };
  const text = renderGateComment(results, { verdict, ...who, wallMs: 586_000, docs: DOCS, artifact, profiles: { functions, driverSharePct: { do: 96, select_1000_rows: 5 } } });
  const lines = text.split('\n');
  assert.equal(lines[0], '❌ `do` needs 3.25 % more instructions per operation than the base: worse; `select_1000_rows` needs 4.00 % fewer instructions per operation: better');
  assert.equal(lines.at(-2), GATE_COMMENT_MARKER, 'the marker last, hidden');
  assert.ok(lines.includes(verdict.lines[0].replace(/:$/, '.')), 'the commits judged, as driverVerdict says them');
  assert.ok(lines.includes('- ❌ REGRESSION: `do`: the head needs +3.25 % more instructions per operation than the base (99,079 → 102,302), beyond 1 %'), text);
  assert.ok(lines.includes(`| \`do\` | 99,079 | 102,302 | **+3.25 %** | 0.05 % |`), text);
  assert.ok(lines.includes(`| \`select_1000_rows\` | 500,000 | 480,000 | **−4.00 %** | 0.20 % |`), 'an improvement beyond the threshold moved too; its own floor');
  assert.ok(lines.includes(`| \`insert\` | 20,000 | 20,100 | +0.50 % | 0.05 % |`), 'within the threshold: not bold');
  assert.match(text, /\+ is more at the head \(worse\), − fewer \(better\); \[floor\]\(https:\/\/github\.com\/o\/mysql-driver-bench\/blob\/v9\.9\.9\/docs\/ci\.md#a-drivers-repository-the-action\).*7 benches, 9 min 46 s in all/);
  // Paths in backticks: GitHub reads a bare <driver>/ as an HTML tag and drops it.
  assert.ok(lines.includes('- `Connection.query` in `<driver>/lib/base/connection.js:705` +3,100') && lines.includes('- `Packet.parse` in `node_modules/mysql2/lib/packets/packet.js:40` −40'), text);
  assert.doesNotMatch(text.replace(/`[^`\n]*`/g, ''), /<driver>|<harness>/, 'no path outside backticks');
  assert.ok(lines.includes(`${NOT_THE_DRIVER} ([why](${DOCS}ci.md#when-a-bench-moves-without-the-drivers-code)).`), 'links absolute, to the docs of the version that ran');
  assert.ok(lines.includes("If this change is intended, anyone with triage or write access to this repository can apply the label `benchmark-accepted`: the next run reports it and passes ([the override](https://github.com/o/mysql-driver-bench/blob/v9.9.9/docs/ci.md#the-override-label))."), text);
  // A bench whose change is mostly outside the driver's functions says so, once; one with the driver's code does not.
  const diff = (rows, totalDelta) => ({ totalDelta, rows: rows.map(([where, selfDelta]) => ({ where, selfDelta })) });
  assert.equal(driverSharePct(diff([['<driver>/lib/base/connection.js:19', 3628], ['node', 214]], 3894)), 100 * 3628 / 3894);
  assert.equal(driverSharePct(diff([['node', 30020], ['node', 28380], ['<driver>/lib/commands/command.js:23', 4816]], 93664)), 100 * 4816 / 93664);
  assert.equal(driverSharePct(diff([['node_modules/mysql2/lib/x.js:1', 50]], 100)), 50);
  // TurboFan inlined the driver's query() into the harness's adapter (node-mysql2's slower branch): the driver's.
  assert.equal(driverSharePct(diff([['<harness>/lib/drivers/mysql2.js:34', 3590], ['node', 62]], 3743)), 100 * 3590 / 3743);
  assert.equal(functionPlace({ where: '<harness>/lib/drivers/mysql2.js:34' }), " (<harness>/lib/drivers/mysql2.js:34, the driver's code inlined into it)");
  assert.equal(text.split(NOT_THE_DRIVER).length, 2, text);
  assert.ok(text.indexOf(NOT_THE_DRIVER) > text.indexOf('`Builtins_LoadIC`'));
  assert.doesNotMatch(text, /never shown/, 'functions only under a bench that moved');
  assert.ok(lines.includes('gh run download 42 -R o/driver -n mysql-driver-bench-42-1 -D mysql-driver-bench-42-1'));
  assert.ok(lines.includes(`mysql-driver-bench profile mysql-driver-bench-42-1/ci-driver-aaaaaaa-ccccccc-1.json --bench do --a ${label(BASE)} --b ${label(HEAD)}`));
  // No profile data, no artifact: neither section.
  const bare = renderGateComment(results, { verdict, ...who, wallMs: 586_000, docs: DOCS });
  assert.doesNotMatch(bare, /functions whose|profile|gh run/);
});

test('a failed row or a run stopped part-way is never the one line; the cell says failed, n/a or not run', () => {
  const results = countResults({ base: BASE, head: HEAD, perOp: { ...steady, batch: [30000, null] } });
  results.benches.find((b) => b.name === 'execute').results[1].status = 'n/a';
  results.benches.find((b) => b.name === 'execute').results[1].ok = false;
  delete results.benches.find((b) => b.name === 'execute').results[1].count;
  const verdict = driverVerdict(results, who);
  const text = renderGateComment(results, { verdict, ...who, wallMs: 1000, docs: DOCS });
  assert.equal(text.split('\n')[0], '❌ No change of the driver\'s beyond 1 %: `batch`: a row failed');
  assert.ok(text.includes('| `batch` | 30,000 | failed | - | 0.05 % |'), text);
  assert.ok(text.includes('| `execute` | 16,000 | n/a | - | 0.05 % |'), text);
  const stopped = countResults({ base: BASE, head: HEAD, perOp: { do: steady.do } });
  stopped.complete = false;
  stopped.stoppedBy = 'SIGTERM';
  stopped.benches[0].results.pop();
  const partial = renderGateComment(stopped, { verdict: driverVerdict(stopped, who), ...who, wallMs: 1000, docs: DOCS });
  assert.match(partial, /^❌ .*the run stopped part-way \(SIGTERM\)\n/);
  assert.ok(partial.includes('| `do` | 10,000 | not run | - | 0.05 % |'));
  assert.deepEqual(gateRows(stopped, who).map((r) => r.moved), [false]);
});

/** A tiny callgrind dump: `query` and `parse` with these instructions per operation. */
const dump = (query, parse, engine = 0) => `events: Ir\nsummary: ${(query + parse + engine) * OPS}\nob=(1) /usr/bin/node\nfl=(1) node_modules/mysql2/lib/x.js\nfn=(1) query\n1 ${query * OPS}\nfn=(2) parse\n2 ${parse * OPS}\n`
  + `fl=(2) ???\nfn=(3) Builtins_LoadIC\n0 ${engine * OPS}\ntotals: ${(query + parse + engine) * OPS}\n`;

/**
 * An --out as a count run leaves it: the results file, each row's profile, the replay sets, and an
 * older run's profile. A bench named in `engine` has its change in V8's code (a builtin), not the driver's.
 */
function syntheticOut(out, results, json, { engine = [] } = {}) {
  mkdirSync(out, { recursive: true });
  writeFileSync(json, JSON.stringify(results));
  for (const bench of results.benches) {
    const base = bench.results[0].count?.perOp;
    for (const row of bench.results.filter((r) => r.count?.profile)) {
      mkdirSync(join(out, row.count.profile), { recursive: true });
      const text = engine.includes(bench.name) ? dump(base - 1000, 1000, row.count.perOp - base) : dump(row.count.perOp - 1000, 1000);
      writeFileSync(join(out, row.count.profile, windowFile(0)), gzipSync(text));
    }
  }
  mkdirSync(join(out, 'replay', 'do'), { recursive: true });
  writeFileSync(join(out, 'replay', 'do', 'mysql2-0123456789abcdef.json'), '{"format":"mysql-driver-bench/replay-set"}');
  const old = join(out, profilePath('2026-11-01T00:00:00.000Z', 'do', 'mysql2@3.24.4'));
  mkdirSync(old, { recursive: true });
  writeFileSync(join(old, windowFile(0)), gzipSync(dump(1, 1)));
}

test('the artifact: the results file, this run\'s kept profiles and the replay sets; never inside --out', () => {
  const out = join(dir, 'copy', 'out');
  const results = countResults({ base: BASE, head: HEAD, perOp: { do: [10000, 12000], insert: [20000, 20000] } });
  const json = join(out, 'ci-driver-aaaaaaa-ccccccc-1.json');
  syntheticOut(out, results, json);
  rmSync(join(out, results.benches[1].results[1].count.profile), { recursive: true }); // pruned: left out
  const artifact = join(dir, 'copy', 'artifact');
  const copied = copyArtifact({ out, json, results, dir: artifact });
  assert.deepEqual(copied, { dir: artifact, results: join(artifact, 'ci-driver-aaaaaaa-ccccccc-1.json'), profiles: 3, replay: true });
  assert.deepEqual(readdirSync(artifact).sort(), ['ci-driver-aaaaaaa-ccccccc-1.json', 'profiles', 'replay']);
  assert.equal(readFileSync(copied.results, 'utf8'), readFileSync(json, 'utf8'));
  assert.deepEqual(readdirSync(join(artifact, 'profiles')), [profilePath(results.startedAt, 'do', 'x').split('/')[1]], 'this run\'s profiles only');
  for (const row of results.benches[0].results) assert.ok(existsSync(join(artifact, row.count.profile, windowFile(0))));
  assert.ok(existsSync(join(artifact, 'replay', 'do', 'mysql2-0123456789abcdef.json')));
  assert.throws(() => checkArtifactDir(out, out), /--artifact .* is --out's directory or inside it/);
  assert.throws(() => checkArtifactDir(join(out, 'a'), out), /inside it/);
  checkArtifactDir(join(dir, 'copy', 'out-artifact'), out);
  checkArtifactDir(join(dir, 'copy'), out);
});

/**
 * ci-driver with a stand-in for the count runs (lib/run-rows.js's request): the count writes `perOp`'s
 * results (and --out's files) where the run would, the bytes beside it `bytes`' (each bench's base
 * count, unchanged, by default), a count from a collected heap `collected`'s (the first count's by
 * default). `said.asked` is the first count's request, `said.runs` every run's.
 */
async function ciDriver(args, { perOp, bytes = {}, collected = {}, engine = [], spreads = {}, env = {}, code = 0 }) {
  const said = { stdout: '', stderr: '', code: null, asked: null, runs: [] };
  const program = new Command().exitOverride();
  registerCiDriver(program, {
    stdout: { write: (s) => { said.stdout += s; return true; } },
    stderr: { write: (s) => { said.stderr += s; return true; } },
    env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache'), ...env },
    setExitCode: (c) => { said.code = c; },
    runRows: async (asked) => {
      said.runs.push(asked);
      const [base, head] = asked.drivers.map((spec) => spec.split('#')[1]);
      const written = () => ({ code: 0, results: JSON.parse(readFileSync(asked.json, 'utf8')) }); // read back, as runRows does
      if (asked.count === 'allocations') {
        const counted = Object.fromEntries(Object.entries(perOp).map(([bench, [b]]) => [bench, bytes[bench] ?? [b, b]]));
        mkdirSync(asked.out, { recursive: true });
        writeFileSync(asked.json, JSON.stringify(allocationResults({ base, head, perOp: counted })));
        return written();
      }
      if (asked.flags.collectedStart) {
        const again = Object.fromEntries(Object.entries(perOp).filter(([bench]) => asked.benches.includes(bench)).map(([bench, counts]) => [bench, collected[bench] ?? counts]));
        writeFileSync(asked.json, JSON.stringify(countResults({ base, head, perOp: again })));
        return written();
      }
      said.asked = asked;
      syntheticOut(asked.out, countResults({ base, head, perOp, spreads }), asked.json, { engine });
      return { ...written(), code };
    },
  });
  await program.parseAsync(['ci-driver', ...args], { from: 'user' });
  return said;
}

test('ci-driver --comment --artifact: the comment written, the artifact copied, and the comment\'s profile command reads the artifact', async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2'));
  repo.commit('a loop in the query path', { 'README.md': 'x\n' });
  const run = join(dir, 'runner-temp');
  const comment = join(run, 'mdb-comment.md');
  const artifact = join(run, 'mysql-driver-bench-42-1');
  const args = (given) => ['do', 'insert', '--repo', repo.dir, '--base', 'v1', '--out', join(run, 'mysql-driver-bench'), '--comment', comment, '--artifact', given, '--summary', join(run, 'summary.md')];

  const slower = await ciDriver(args(artifact), { perOp: { do: [10000, 12000], insert: [20000, 20001] }, env: { GITHUB_RUN_ID: '42', GITHUB_REPOSITORY: 'o/driver' } });
  assert.equal(slower.code, 1, slower.stderr);
  const text = readFileSync(comment, 'utf8');
  assert.equal(text.split('\n')[0], '❌ `do` needs 20.0 % more instructions per operation than the base: worse');
  assert.match(text, /\| `do` \| 10,000 \| 12,000 \| \*\*\+20\.00 %\*\* \(collected \+20\.00 %\) \| 10,000 → 10,000 \(±0\.00 %\) \| 0\.05 % \|/, 'the bytes beside the count, and the moved bench counted again');
  assert.match(slower.stderr, /the results, 4 rows' profiles and the replay sets were copied to .*mysql-driver-bench-42-1\n/);
  assert.ok(readdirSync(artifact).some((f) => /^ci-driver-[0-9a-f]{7}-[0-9a-f]{7}-\d+\.json$/.test(f)));
  assert.ok(readdirSync(artifact).some((f) => /^ci-driver-[0-9a-f]{7}-[0-9a-f]{7}-\d+-bytes\.json$/.test(f)), 'the bytes\' results too');
  assert.deepEqual(slower.runs.map((asked) => asked.count), ['allocations', 'instructions', 'instructions'], 'the bytes first: their run captures the sets');
  assert.deepEqual(slower.runs[2].benches, ['do'], 'only the bench that moved is counted again');
  assert.ok(slower.runs[2].flags.collectedStart);
  assert.ok(slower.runs.every((asked) => asked.flags.threshold === undefined), 'ci-driver judges, not the run');
  assert.ok(existsSync(join(artifact, 'replay')) && existsSync(join(artifact, 'profiles')));
  // As a reviewer would: in the directory the download made, the command as the comment gives it.
  const [download, command] = text.split('```sh\n')[1].split('\n');
  assert.equal(download, 'gh run download 42 -R o/driver -n mysql-driver-bench-42-1 -D mysql-driver-bench-42-1');
  assert.match(command, /^mysql-driver-bench profile mysql-driver-bench-42-1\/ci-driver-\S+\.json --bench do --a \S+ --b \S+$/);
  const profile = spawnSync(process.execPath, [BIN, ...command.split(' ').slice(1)], { cwd: dirname(artifact), encoding: 'utf8' });
  assert.equal(profile.status, 0, profile.stderr);
  assert.match(profile.stdout, /^do: [\s\S]*query/);

  // The same code: one line; a local run's command names the artifact as given.
  const same = await ciDriver(args(join(run, 'local-artifact')), { perOp: { do: [10000, 10001], insert: [20000, 20000] } });
  assert.equal(same.code, 0, same.stderr);
  assert.match(readFileSync(comment, 'utf8'), /^✅ Nothing moved: no bench needs more than 1 % more instructions per operation than the base \(2 benches, \d+ s\)\.\n\n<!-- mysql-driver-bench: nothing moved -->\n<!-- mysql-driver-bench gate -->\n$/);
  const local = await ciDriver(args(join(run, 'local-artifact')), { perOp: { do: [10000, 11000], insert: [20000, 20000] } });
  assert.equal(local.code, 1);
  assert.ok(readFileSync(comment, 'utf8').split('\n').some((l) => l.startsWith(`mysql-driver-bench profile ${join(run, 'local-artifact')}/ci-driver-`)), 'outside a workflow run: the directory as given, no download');
  assert.doesNotMatch(readFileSync(comment, 'utf8'), /gh run download/);
});

test('ci-driver counts the head against its merge-base with --base, names the three commits, and writes them into the results file', async () => {
  const { repo, point, head: pr, tip } = makeBranchedRepo(join(dir, 'mysql2-behind'));
  const out = join(dir, 'behind-out');
  const comment = join(dir, 'behind-comment.md');
  const summary = join(dir, 'behind-summary.md');
  const said = await ciDriver(['do', '--repo', repo.dir, '--base', 'main', '--head', 'pr', '--out', out, '--comment', comment, '--summary', summary], { perOp: { do: [10000, 12000] } });
  assert.equal(said.code, 1, said.stderr);
  assert.deepEqual(said.asked.drivers, [`git:${repo.dir}#${point}`, `git:${repo.dir}#${pr}`], 'the rows: the merge-base and the head, not the tip');
  assert.equal(said.asked.baseline, `git:${repo.dir}#${point}`);
  const line = `${label(pr)} (head, ${pr.slice(0, 7)}) against its merge-base ${label(point)} (${point.slice(0, 7)}) with main (tip ${tip.slice(0, 7)}), instructions per operation, threshold 1 %:`;
  assert.ok(said.stdout.split('\n').includes(line), said.stdout);
  for (const text of [readFileSync(comment, 'utf8'), readFileSync(summary, 'utf8')]) assert.ok(text.includes(line.replace(/^(\S+)(.*merge-base )(\S+)/, '**$1**$2**$3**').replace(/:$/, '')), text);
  const results = JSON.parse(readFileSync(said.asked.json, 'utf8'));
  const { bytes, collected, ...commits } = results.gate;
  assert.deepEqual(commits, { head: pr, mergeBase: point, baseTip: tip, baseRef: 'main' });
  assert.deepEqual(bytes.benches, { do: { base: 10000, head: 10000 } });
  assert.deepEqual(collected.benches, { do: { base: 10000, head: 12000 } });
  const check = resultsValidator();
  assert.ok(check(results), JSON.stringify(check.errors?.[0]));
  assert.equal(check({ ...results, gate: { ...results.gate, baseTip: 'main' } }), false, 'the schema wants full ids');
});

test("ci-driver: a bench that moved with its change in V8's code, its bytes unchanged and one count unsettled is unsettled, said and not failed; settled, or with its bytes moved, or in the driver's code, it fails", async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2-unsettled'));
  repo.commit('a change off execute\'s path', { 'README.md': 'x\n' });
  const out = join(dir, 'unsettled-out');
  const comment = join(dir, 'unsettled-comment.md');
  const gate = (extra) => ciDriver(['do', 'execute', '--repo', repo.dir, '--base', 'v1', '--out', out, '--comment', comment], { perOp: { do: [10000, 10001], execute: [400000, 415000] }, ...extra });
  const churn = { execute: [4.39, 1.04] };
  const v8 = await gate({ engine: ['execute'], spreads: churn });
  assert.equal(v8.code, 0, v8.stdout);
  assert.match(v8.stdout, /UNSETTLED: execute: \+3\.75 % instructions per operation \(400,000 → 415,000\), less than half of it in the driver's own functions, the bytes allocated per operation unchanged \(400,000 → 400,000\) and one count unsettled \(its windows 4\.39 % and 1\.04 % apart\): V8's work moved, not the driver's; not failed/);
  assert.doesNotMatch(v8.stdout, /REGRESSION/);
  assert.match(readFileSync(comment, 'utf8'), /^✅ No change of the driver's beyond 1 %: `execute`'s \+3\.75 % is V8's work, not the driver's: not failed\n[\s\S]*⚠️ UNSETTLED: `execute`/);
  // node-mysql2 5b6206c on batch: a stack captured per query, all in V8's functions, no byte more, both counts settled.
  const stacks = await gate({ engine: ['execute'], spreads: { execute: [1.24, 1.15] } });
  assert.equal(stacks.code, 1, 'both counts settled: the driver\'s change, though V8 does the work');
  assert.match(stacks.stdout, /REGRESSION: execute/);
  const allocating = await gate({ engine: ['execute'], spreads: churn, bytes: { execute: [400000, 401000] } });
  assert.equal(allocating.code, 1, 'its bytes moved too: the driver allocates more');
  assert.match(allocating.stdout, /REGRESSION: execute: the head needs \+3\.75 % more instructions per operation/);
  const own = await gate({ spreads: churn });
  assert.equal(own.code, 1, 'the change in the driver\'s own functions');
  assert.match(own.stdout, /REGRESSION: execute/);
  // A count whose windows held a full collection twice: said, not judged (deltas.js leaves its Δ uncalled).
  const shaky = countResults({ base: BASE, head: HEAD, perOp: { execute: [400000, 415000] } });
  Object.assign(shaky.benches[0].results[1], { deltaSignificant: false });
  shaky.benches[0].results[1].count.unsteady = true;
  const said = driverVerdict(shaky, who);
  assert.equal(said.regressed, false);
  assert.ok(said.lines.includes('- ⚠️ UNSTEADY: execute: not judged: its count held a one-off event, or a full collection of the heap, in its windows twice'), said.lines.join('\n'));
  const unsettled = (rows, shares) => unsettledBenches(rows, { driverSharePct: shares, bytesFloorOf: () => 0.1 });
  const row = (bench, bytes, spreads = [4, 1], moved = true) => ({ bench, moved, bytes, spreads });
  assert.deepEqual(unsettled([row('a', { changePct: 0.05 }), row('b', { changePct: 0.2 }), row('c', null), row('d', { changePct: 0 }), row('e', { changePct: 0 }, [4, 1], false), row('f', { changePct: 0 }, [1.2, 1.1]), row('g', { changePct: 0 }, [1.4, 0.1])],
    { a: 10, b: 10, c: 10, d: 60, e: 10, f: 10, g: 10 }), ['a'],
    'V8\'s when its bytes stayed, less than half is the driver\'s and one count did not settle; never without bytes or a profile');
  assert.deepEqual([oneUnsettled([4.39, 1.04]), oneUnsettled([1.24, 1.15]), oneUnsettled([1.4, 0.1]), oneUnsettled([undefined, 3])], [true, false, false, false]);
});

test('ci-driver: a bench that moved is counted again from a collected heap; the smaller change of the two is judged, and a change that differs is said', async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2-heap'));
  repo.commit('a loop in query()', { 'README.md': 'x\n' });
  const out = join(dir, 'heap-out');
  const gate = (extra) => ciDriver(['do', 'select_100_cols', '--repo', repo.dir, '--base', 'v1', '--out', out], { perOp: { do: [100000, 103700], select_100_cols: [1924892, 1967846] }, ...extra });
  // node-mysql2's slower branch: the loop's +0.17 % on select_100_cols read +2.23 % from the heap as it starts.
  const said = await gate({ collected: { do: [100000, 103690], select_100_cols: [1924794, 1928033] } });
  assert.equal(said.code, 1, 'do moved in both states');
  assert.match(said.stdout, /REGRESSION: do: the head needs \+3\.69 % more instructions per operation than the base \(100,000 → 103,690\), counted from a collected heap, beyond 1 %/);
  assert.doesNotMatch(said.stdout, /REGRESSION: select_100_cols/);
  assert.match(said.stdout, /UNSETTLED: select_100_cols: \+2\.23 % instructions per operation \(1,924,892 → 1,967,846\) from the heap as the worker starts, \+0\.17 % \(1,924,794 → 1,928,033\) from a heap collected before the driver loads: V8's work moved with the heap, not only the driver's; judged at \+0\.17 %/);
  assert.deepEqual(said.runs[2].benches, ['do', 'select_100_cols']);
  const opposite = await gate({ collected: { select_100_cols: [1924794, 1900000] } });
  assert.match(opposite.stdout, /UNSETTLED: select_100_cols: .*judged at 0\.00 %/, 'two directions: no change judged');
  assert.deepEqual([judgedChange(2.23, 0.17), judgedChange(-3, -5), judgedChange(2, -1), judgedChange(1.5, null), judgedChange(null, 1)], [0.17, -3, 0, 1.5, null]);
});

test('ci-driver refuses an --artifact inside --out and a --comment it cannot write, before the run', async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2-refused'));
  repo.commit('docs', { 'README.md': 'x\n' });
  const out = join(dir, 'refused-out');
  const run = (args) => ciDriver(['do', '--repo', repo.dir, '--base', 'v1', '--out', out, ...args], { perOp: { do: [1, 1] } });
  await assert.rejects(run(['--artifact', join(out, 'artifact')]), /--artifact .* is --out's directory or inside it/);
  writeFileSync(join(dir, 'a-file'), '');
  await assert.rejects(run(['--comment', join(dir, 'a-file', 'comment.md')]), /^UserError: --comment .*: cannot write in .*a-file \((EEXIST|ENOTDIR)\)$/);
  assert.equal(existsSync(out), false, 'nothing ran');
});

test('counted with allocations: the words are bytes allocated, the writes beside each moved bench, no profile command', () => {
  const check = resultsValidator();
  const quiet = allocationResults({ base: BASE, head: HEAD, perOp: steady });
  assert.ok(check(quiet), JSON.stringify(check.errors?.[0]));
  assert.equal(renderGateComment(quiet, { verdict: driverVerdict(quiet, who), ...who, wallMs: 21_000, docs: DOCS }).split('\n')[0],
    '✅ Nothing moved: no bench needs more than 1 % more bytes allocated per operation than the base (7 benches, 21 s).');

  const results = allocationResults({ base: BASE, head: HEAD, perOp: { ...steady, do: [11232, 11769], insert: [8054, 8054] }, writes: { do: [1, 2] } });
  const verdict = driverVerdict(results, who);
  assert.equal(verdict.regressed, true);
  assert.ok(verdict.lines.includes('- ❌ REGRESSION: do: the head needs +4.78 % more bytes allocated per operation than the base (11,232 → 11,769), beyond 1 %'), verdict.lines.join('\n'));
  assert.match(verdict.lines[0], /, bytes allocated per operation, threshold 1 %:$/);
  assert.deepEqual(movedColumns(results, who), { do: [{ head: 'writes/op', base: 1, atHead: 2 }, { head: 'sent B/op', base: 17, atHead: 17 }, { head: 'received B/op', base: 11, atHead: 11 }] });
  assert.equal(columnsText(movedColumns(results, who).do), 'writes/op 1.0 → 2.0 (+100.00 %), sent B/op 17.0 → 17.0 (±0.00 %), received B/op 11.0 → 11.0 (±0.00 %)');
  const artifact = { name: 'mysql-driver-bench-42-1', run: { id: '42', repository: 'o/driver' }, path: 'mysql-driver-bench-42-1/ci-driver-aaaaaaa-ccccccc-1.json' };
  const text = renderGateComment(results, { verdict, ...who, wallMs: 21_000, artifact, docs: DOCS });
  const lines = text.split('\n');
  assert.equal(lines[0], '❌ `do` needs 4.78 % more bytes allocated per operation than the base: worse', text);
  assert.ok(lines.includes('| `do` | 11,232 | 11,769 | **+4.78 %** | 0.05 % |'), text);
  assert.match(text, /^Bytes allocated per operation; \+ is more at the head/m);
  assert.ok(lines.includes('**`do`**, beside it: writes/op 1.0 → 2.0 (+100.00 %), sent B/op 17.0 → 17.0 (±0.00 %), received B/op 11.0 → 11.0 (±0.00 %)'), text);
  assert.doesNotMatch(text, /\*\*`insert`\*\*, beside it|functions whose|mysql-driver-bench profile|instructions/);
  assert.ok(lines.includes('The results (`mysql-driver-bench-42-1/ci-driver-aaaaaaa-ccccccc-1.json`) and the replay sets are the artifact `mysql-driver-bench-42-1` of this workflow run.'), text);
  assert.ok(lines.includes('gh run download 42 -R o/driver -n mysql-driver-bench-42-1 -D mysql-driver-bench-42-1'));
  // Instructions keep their words: no columns of their own.
  assert.deepEqual(movedColumns(countResults({ base: BASE, head: HEAD, perOp: { do: [10000, 12000] } }), who), {});
});

test('ci-driver --count allocations: the run counts allocations without --jit-names, and says the writes beside a moved bench', async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2-allocations'));
  repo.commit('arrays in the query path', { 'README.md': 'x\n' });
  const out = join(dir, 'allocations-out');
  const said = { stdout: '', code: null, asked: null };
  const program = new Command().exitOverride();
  registerCiDriver(program, {
    stdout: { write: (s) => { said.stdout += s; return true; } },
    stderr: { write: () => true },
    env: { MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache') },
    setExitCode: (c) => { said.code = c; },
    runRows: async (asked) => {
      said.asked = asked;
      const [base, head] = asked.drivers.map((spec) => spec.split('#')[1]);
      const results = allocationResults({ base, head, perOp: { do: [5531, 5797] }, writes: { do: [1, 1] } });
      mkdirSync(asked.out, { recursive: true });
      writeFileSync(asked.json, JSON.stringify(results));
      return { code: 0, results };
    },
  });
  await program.parseAsync(['ci-driver', 'do', '--repo', repo.dir, '--base', 'v1', '--out', out, '--count', 'allocations'], { from: 'user' });
  assert.equal(said.code, 1);
  assert.deepEqual([said.asked.count, said.asked.flags], ['allocations', { smoke: false, quiet: false, collectedStart: false }], 'one run: the count is the bytes, without JIT names');
  assert.match(said.stdout, /REGRESSION: do: the head needs \+4\.81 % more bytes allocated per operation than the base \(5,531 → 5,797\), beyond 1 %/);
  assert.match(said.stdout, /^do, beside it: writes\/op 1\.0 → 1\.0 \(±0\.00 %\)/m);
  assert.doesNotMatch(said.stdout, /functions whose/);
  await assert.rejects(program.parseAsync(['ci-driver', 'do', '--repo', repo.dir, '--base', 'v1', '--count', 'bytes'], { from: 'user' }), /--count bytes: no such counter; the counters are instructions, cycles, allocations/);
});

test('the three comments a maintainer meets, and the override: each opens with its verdict in words; ci.md shows them', async () => {
  const repo = makeDriverRepo(join(dir, 'mysql2-three'));
  repo.commit('a change', { 'README.md': 'x\n' });
  const comment = join(dir, 'three-comment.md');
  const ci = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
  const gate = async (extra, flags = []) => {
    const said = await ciDriver(['do', 'execute', '--repo', repo.dir, '--base', 'v1', '--out', join(dir, 'three-out'), '--comment', comment, ...flags], extra);
    return { ...said, text: readFileSync(comment, 'utf8') };
  };
  // node-mysql2's 01f1092 on execute, as its gate counted it: the smaller change of two heap states judged, its bytes +64.65 %.
  const regressed = { perOp: { do: [98705, 98704], execute: [2172575, 4016713] }, collected: { execute: [2172572, 4012360] }, bytes: { execute: [174553, 287396] } };
  const regression = await gate(regressed);
  assert.equal(regression.code, 1);
  assert.equal(regression.text.split('\n')[0], '❌ `execute` needs 84.7 % more instructions per operation than the base: worse');
  const quiet = await gate({ perOp: { do: [98705, 98704], execute: [2172575, 2172580] } });
  assert.equal(quiet.code, 0);
  assert.match(quiet.text, /^✅ Nothing moved: no bench needs more than 1 % more instructions per operation than the base \(2 benches, \d+ s\)\.\n\n<!--/);
  const v8 = await gate({ perOp: { do: [98705, 98704], execute: [2172575, 2254050] }, bytes: { execute: [174553, 174553] }, engine: ['execute'], spreads: { execute: [4.39, 1.04] } });
  assert.equal(v8.code, 0);
  assert.equal(v8.text.split('\n')[0], "✅ No change of the driver's beyond 1 %: `execute`'s +3.75 % is V8's work, not the driver's: not failed");
  const accepted = await gate(regressed, ['--accepted-by', '@alice']);
  assert.equal(accepted.code, 0, 'the override: reported, and passed');
  assert.equal(accepted.text.split('\n')[0], '✅ Accepted by @alice (label `benchmark-accepted`): `execute` needs 84.7 % more instructions per operation than the base: worse');
  assert.ok(accepted.text.includes('Accepted: @alice applied the label `benchmark-accepted`, so this run reports the change and passes.'));
  assert.match(accepted.stdout, /^accepted: @alice applied the label benchmark-accepted: the regression is reported and the gate passes$/m);
  const failedRow = await gate({ perOp: { do: [98705, null], execute: [2172575, 4016713] } }, ['--accepted-by', '@alice']);
  assert.equal(failedRow.code, 1, 'a failed row is not a change to accept');
  assert.match(failedRow.text, /^❌ /);
  const relabelled = await gate(regressed, ['--accept-label', 'perf-ok']);
  assert.deepEqual([shortFunctionName('v8::internal::LookupIterator::State v8::internal::LookupIterator::LookupInRegularHolder<false>(v8::internal::Map, v8::internal::JSReceiver)'), shortFunctionName('v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*, int)'), shortFunctionName('Connection.query')],
    ['v8::internal::LookupIterator::LookupInRegularHolder<false>', 'v8::internal::JSObject::MigrateToMap', 'Connection.query'], 'C++ names without return type and parameters');
  assert.deepEqual(['void v8::internal::String::WriteToFlat<unsigned char>(v8::internal::String, unsigned char*, int, int)', 'v8::internal::HashTable<v8::internal::NameDictionary, v8::internal::NameDictionaryShape>::Rehash(v8::internal::PtrComprCageBase)',
    'int v8::internal::BinarySearch<(v8::internal::SearchMode)0, v8::internal::TransitionArray>(v8::internal::TransitionArray*, int*) [clone .isra.0]', 'next :7:9', 'v8::internal::Map::Foo() const'].map(shortFunctionName),
  ['v8::internal::String::WriteToFlat<unsigned char>', 'v8::internal::HashTable<v8::internal::NameDictionary, v8::internal::NameDictionaryShape>::Rehash', 'v8::internal::BinarySearch<(v8::internal::SearchMode)0, v8::internal::TransitionArray>', 'next :7:9', 'v8::internal::Map::Foo'], 'templates with spaces, clones, const');
  assert.match(relabelled.text, /apply the label `perf-ok`: the next run reports it and passes/);
  if (process.env.MDB_SHOW_COMMENTS) for (const t of [regression, quiet, v8, accepted]) process.stderr.write(`\n=====\n${t.text}`);
  for (const text of [regression.text, v8.text, accepted.text]) assert.ok(ci.includes(text.split('\n')[0]), `docs/ci.md shows: ${text.split('\n')[0]}`);
  assert.ok(ci.includes(quiet.text.split('\n')[0].replace(/\(2 benches, \d+ s\)\.$/, '')), 'docs/ci.md shows the quiet comment');
});
