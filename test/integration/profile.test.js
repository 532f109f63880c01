// Where the instructions went: the callgrind parser on a recorded dump (its functions' self costs add
// up to its total), V8's perf map naming JIT code, the profile kept by a count, and the profile diff
// naming a fixture adapter's added loop as the change.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROFILES_DIR, keepProfile, profilePath, pruneProfiles, readProfile } from '../../lib/replay/profiles.js';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseCallgrind, selfSum } from '../../lib/replay/callgrind.js';
import { bareAddress, describeEntry, readPerfMap } from '../../lib/replay/perf-map.js';
import { diffCosts, functionCosts, profileDirs, sharedFile, UNNAMED } from '../../lib/results/profile-diff.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const gunzip = (name) => gunzipSync(readFileSync(fixture(name))).toString('utf8');

test('the parser reads name compression, relative positions and calls; self costs add up to the total', () => {
  const text = ['events: Ir', 'positions: line', 'summary: 50', 'ob=(1) /bin/x', 'fl=(1) a.c', 'fn=(1) main', '10 5', '+2 5',
    'cfl=(2) b.c', 'cfn=(2) work', 'calls=2 20', '* 40', 'fl=(2)', 'fn=(2)', '20 30', 'cfn=(3) work\'2', 'calls=1 20', '20 10',
    'fn=(3)', '20 10', 'totals: 50'].join('\n');
  const p = parseCallgrind(text);
  assert.equal(p.summary, 50);
  assert.equal(selfSum(p), 50);
  const byName = Object.fromEntries(p.functions.map((f) => [f.name, f]));
  assert.deepEqual([byName.main.self, byName.main.inclusive, byName.main.line, byName.main.file], [10, 50, 10, 'a.c']);
  assert.deepEqual([byName.work.self, byName.work.inclusive, byName.work.file], [40, 40, 'b.c']); // work'2 is work: its call is recursion
});

test('a recorded callgrind dump: every function\'s self instructions add up to its summary, and the perf map names the JIT code', () => {
  // Recorded: valgrind --tool=callgrind --dump-before=uv_os_getpriority node --perf-basic-prof
  // --interpreted-frames-native-stack tiny.js (a named loop called 20,000 times before and after an
  // os.getPriority()), its second dump gzipped, and the process's /tmp/perf-<pid>.map.
  const dump = parseCallgrind(gunzip('callgrind-window.cg.gz'));
  assert.ok(dump.summary > 1e8, String(dump.summary));
  assert.equal(selfSum(dump), dump.summary);
  assert.equal(dump.totals, dump.summary);
  const costs = functionCosts({ windows: [gunzip('callgrind-window.cg.gz')], perfMap: gunzip('callgrind-window.map.gz') }, 1);
  // Recorded with concurrent compiles, outside the compile entries: V8's compiler functions are left out
  // by name; the collector's (its entry's cost, 31 million here, kept apart), by the calls that reach them.
  assert.equal(costs.summed + costs.leftOut, dump.summary);
  assert.ok(costs.collecting > 0.1 * dump.summary && costs.total + costs.collecting + costs.compiling === dump.summary, JSON.stringify(costs));
  assert.ok(costs.leftOut > 0.8 * costs.collecting && costs.leftOut < 0.1 * dump.summary + costs.collecting, String(costs.leftOut));
  // work() (line 3), namedLoop inlined into it by TurboFan: named from the map, not an address.
  const named = [...costs.costs.values()].find((c) => c.name === 'work');
  assert.ok(named && named.self > 0.1 * costs.total, JSON.stringify(named));
  assert.match(named.where, /tiny\.js:3$/);
  assert.ok(costs.unnamed < 1e-6 * costs.total, `unnamed ${costs.unnamed} of ${costs.total}`);
  assert.deepEqual(describeEntry('JS:*namedLoop /tmp/t.js:2:19'), { name: 'namedLoop', file: '/tmp/t.js', line: 2 });
  assert.equal(readPerfMap('10 10 JS:~f /a.js:1:1\n18 4 JS:*g /a.js:5:1\n')(0x19).name, 'g');
  assert.equal(bareAddress('0x000000000d067200'), 0xd067200);
});

test('a function is its file inside its package, checkout or harness; a profile is looked for under the run\'s --out, then beside the results file', () => {
  const here = fileURLToPath(new URL('../../', import.meta.url));
  const inside = 'lib/packets/resultset_header.js';
  assert.equal(sharedFile(`/root/.cache/x/git/deps/ab12/node_modules/mysql2/${inside}`), `node_modules/mysql2/${inside}`);
  assert.equal(sharedFile(`file:///tmp/mdb-0123456789ab/d/${inside}`), `<driver>/${inside}`, 'a checkout seen through its count sandbox');
  assert.equal(sharedFile(`/root/.cache/mysql-driver-bench/git/commits/${'a'.repeat(40)}/${inside}`), `<driver>/${inside}`);
  assert.equal(sharedFile('/tmp/mdb-0123456789ab/h/lib/drivers/mysql2.js'), '<harness>/lib/drivers/mysql2.js');
  assert.equal(sharedFile(`file://${here}lib/drivers/mysql2.js`), '<harness>/lib/drivers/mysql2.js', 'this checkout, as a module outside the sandbox imports it');
  assert.equal(sharedFile('./malloc/./malloc/malloc.c'), './malloc/./malloc/malloc.c');
  const results = { settings: { replay: { dir: '/runs/out/replay' } } };
  assert.deepEqual(profileDirs(results, '/elsewhere/g.json', 'profiles/t/do/mysql2'), ['/runs/out/profiles/t/do/mysql2', '/elsewhere/profiles/t/do/mysql2']);
  assert.deepEqual(profileDirs({}, '/runs/out/r.json', 'profiles/t/do/mysql2'), ['/runs/out/profiles/t/do/mysql2']);
});

test('diffCosts ranks by self Δ per operation, with each one\'s share and the unnamed share', () => {
  const side = (entries, unnamed) => {
    const costs = new Map(entries.map(([name, self]) => [`${name}\0f.js`, { name, where: 'f.js:1', self, inclusive: self }]));
    costs.set(`${UNNAMED}\0`, { name: UNNAMED, where: '', self: unnamed, inclusive: unnamed });
    return { costs, total: entries.reduce((n, [, s]) => n + s, unnamed), unnamed };
  };
  const d = diffCosts(side([['a', 100], ['b', 50]], 10), side([['a', 100], ['b', 140]], 20));
  assert.equal(d.totalDelta, 100);
  assert.equal(d.rows[0].name, 'b');
  assert.equal(d.rows[0].sharePct, 90);
  assert.deepEqual(d.unnamed, { selfDelta: 10, sharePct: 10 });
  // By inclusive Δ: a caller whose own Δ is nothing but whose callee's is, ranked first.
  const caller = (calleeSelf) => ({ costs: new Map([['top\0f.js', { name: 'top', where: 'f.js:9', self: 1, inclusive: 1 + calleeSelf }], ['leaf\0g', { name: 'leaf', where: 'g', self: calleeSelf, inclusive: calleeSelf }]]), total: 1 + calleeSelf, unnamed: 0 });
  const byInclusive = diffCosts(caller(10), caller(60), { by: 'inclusive' });
  assert.deepEqual(byInclusive.rows.map((r) => [r.name, r.sharePct]), [['top', 100], ['leaf', 100]]);
  assert.equal(diffCosts(caller(10), caller(60)).rows[0].name, 'leaf');
});

test('profiles are kept gzipped and pruned oldest first past their bound', () => {
  const root = mkdtempSync(join(tmpdir(), 'mdb-profiles-test-'));
  try {
    const src = join(root, 'src');
    mkdirSync(src);
    for (let k = 1; k <= 4; k++) writeFileSync(join(src, `cg.out.${k}`), `summary: ${k}\n${'x'.repeat(5000)}\n`);
    const rows = ['a', 'b', 'c'].map((d, i) => {
      const dest = join(root, profilePath(`2026-01-0${i + 1}T00:00:00.000Z`, 'do', d));
      keepProfile({ files: [2, 3, 4].map((k) => join(src, `cg.out.${k}`)), dest });
      const when = new Date(Date.UTC(2026, 0, i + 1));
      for (const f of readdirSync(dest)) utimesSync(join(dest, f), when, when);
      return dest;
    });
    assert.deepEqual(readProfile(rows[0]).windows.map((w) => w.split('\n')[0]), ['summary: 2', 'summary: 3', 'summary: 4']);
    const size = readdirSync(rows[0]).reduce((n, f) => n + statSync(join(rows[0], f)).size, 0);
    assert.equal(pruneProfiles(join(root, PROFILES_DIR), 2 * size), 1);
    assert.equal(readProfile(rows[0]), null); // the oldest went, and its run's directory with it
    assert.equal(existsSync(dirname(dirname(rows[0]))), false);
    assert.ok(readProfile(rows[1]) && readProfile(rows[2]));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);

test('a count keeps each row\'s profile; the profile diff names an added loop as the change', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const r = await runCli(['do', '--replay', '--count', 'instructions', '--smoke', '--drivers', `mysql2,${fixture('loop-adapter.js')}`, '--jit-names',
    '--out', out, '--json', '-', '--quiet'], { env, tmp, timeoutMs: 300000 });
  assert.equal(r.code, 0, r.stderr);
  const results = JSON.parse(r.stdout);
  const [a, b] = results.benches[0].results;
  assert.match(a.count.profile, /^profiles\/[\dT-]+Z\/do\/mysql2$/);
  assert.deepEqual(results.settings.count.profileFlags, ['--perf-basic-prof', '--no-short-builtin-calls']);
  const file = join(out, (await import('../../lib/results/file.js')).resultsFileName(results));
  const diff = await runCli(['profile', file, '--bench', 'do', '--a', 'mysql2', '--b', 'loop-mysql2', '--top', '5'], { tmp });
  assert.equal(diff.code, 0, diff.stderr);
  process.stderr.write(`${diff.stdout}\n(counts: ${a.count.perOp} and ${b.count.perOp} instructions/op)\n`);
  const first = diff.stdout.split('\n')[3];
  assert.match(first, /^addedLoop\s+\S*loop-adapter\.js:11\s/);
  const share = Number(/([\d.]+) %$/.exec(first)[1]);
  // Most of the rest is V8's sweeper: the row's own, in its count too.
  assert.ok(share >= 75, `addedLoop explains ${share} % of the Δ`);
  // A row of each of two runs (two commits' labels): the same file twice here, --a in the first, --b in the second.
  const across = await runCli(['profile', file, file, '--bench', 'do', '--a', 'mysql2', '--b', 'loop-mysql2', '--top', '5'], { tmp });
  assert.equal(across.code, 0, across.stderr);
  assert.equal(across.stdout, diff.stdout);
  // The HTML report has the same table.
  const html = await runCli(['report', file, '--html', '-'], { tmp });
  assert.equal(html.code, 0, html.stderr);
  assert.match(html.stdout, /Where the instructions went: loop-mysql2 against mysql2 \(\+[\d,]+ instructions\/op\)/);
  assert.match(html.stdout, /<tr><td>addedLoop<\/td>/);
  // Gone: one line, exit 2.
  rmSync(join(out, b.count.profile), { recursive: true });
  const gone = await runCli(['profile', file, '--bench', 'do', '--a', 'mysql2', '--b', 'loop-mysql2'], { tmp });
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /^mysql-driver-bench: error: the profile of do · loop-mysql2 in '.*' is gone \(.*\): pruned to keep profiles within their bound, or removed\n$/);
});
