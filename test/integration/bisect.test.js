// `bisect` on a small repository the test makes: a dozen commits after v1, one of which adds a loop
// to mysql2's query path (more instructions per operation for `do`) and one of which cannot be
// installed (skipped, its neighbour counted instead). Bisection names the loop's commit, its Δ against
// its parent and its subject; the good commits share one dependency install; the repository is only
// read. Bad refs and refs in the wrong order are one line each, exit 2. Counted under Valgrind
// (--smoke). The judgement itself (results/bisection.js) is checked pure first.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countRequest, countsOf, moreOrFewer } from '../../lib/bisect.js';
import { movedBenches, nextStep, stepsLeft, verdictOf } from '../../lib/results/bisection.js';
import { addedQueryWork, gitIn, makeBranchedRepo, makeDriverRepo } from '../helpers/driver-repo.js';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const base = mkdtempSync(join(tmpdir(), 'mdb-bisect-test-'));
after(() => {
  rmSync(base, { recursive: true, force: true });
  removeIsolatedDirs();
});

test('moved: beyond the noise floor (and --threshold); a commit is bad nearer bad than good, or beyond the threshold towards bad', () => {
  const moved = movedBenches({ do: 1000, insert: 2000 }, { do: 1100, insert: 2001 }, { floors: { do: 0.3, insert: 0.3 } });
  assert.deepEqual(moved.map((m) => [m.bench, m.changePct, m.moved]), [['do', 10, true], ['insert', 0.05, false]]);
  assert.equal(verdictOf({ do: 1049, insert: 3000 }, moved), 'good'); // insert is not judged
  assert.equal(verdictOf({ do: 1051, insert: 2000 }, moved), 'bad');
  // An improvement: fewer instructions at bad.
  const faster = movedBenches({ do: 1000 }, { do: 500 }, { floors: { do: 0.3 } });
  assert.equal(verdictOf({ do: 740 }, faster), 'bad');
  assert.equal(verdictOf({ do: 760 }, faster), 'good');
  // --threshold 2: moved by more than 2 % from good, towards bad.
  const by2 = movedBenches({ do: 1000 }, { do: 1100 }, { floors: { do: 0.3 }, thresholdPct: 2 });
  assert.equal(verdictOf({ do: 1021 }, by2, { thresholdPct: 2 }), 'bad');
  assert.equal(verdictOf({ do: 1019 }, by2, { thresholdPct: 2 }), 'good');
  assert.equal(verdictOf({ do: 900 }, by2, { thresholdPct: 2 }), 'good');
  assert.equal(movedBenches({ do: 1000 }, { do: 1015 }, { floors: { do: 0.3 }, thresholdPct: 2 })[0].moved, false);
  // Said with + for more instructions, and in words.
  assert.deepEqual([moved[0].changePct, faster[0].changePct].map((pct) => moreOrFewer(pct)), ['+10 % more instructions/op', '-50 % fewer instructions/op']);
});

test('the search: the middle, a skipped commit replaced by its nearer neighbour, the first bad found, or only skipped commits left', () => {
  const v = (entries) => new Map(entries);
  assert.deepEqual(nextStep(12, v([[11, 'bad']])), { next: 5, span: 12 });
  assert.equal(nextStep(12, v([[11, 'bad'], [5, 'skip']])).next, 4);
  assert.equal(nextStep(12, v([[11, 'bad'], [5, 'skip'], [4, 'good']])).next, 7);
  assert.deepEqual(nextStep(12, v([[11, 'bad'], [5, 'skip'], [4, 'good'], [7, 'good'], [9, 'bad'], [8, 'bad']])), { found: 8 });
  assert.deepEqual(nextStep(1, v([[0, 'bad']])), { found: 0 });
  assert.deepEqual(nextStep(4, v([[3, 'bad'], [0, 'good'], [1, 'skip'], [2, 'skip']])), { among: [1, 2, 3] });
  assert.equal(stepsLeft(12), 4);
  assert.equal(stepsLeft(1), 0);
});

test("a count run's rows read per commit: counts, or why a commit has none; the floors from its settings", () => {
  const results = {
    settings: { count: { noiseFloorPct: 0.1, benchFloorsPct: { execute: 3.5 } } },
    drivers: [{ name: 'a', git: { commit: 'A' } }, { name: 'b', git: { commit: 'B' } }],
    benches: [
      { name: 'do', results: [{ driver: 'a', status: 'ok', count: { perOp: 100 } }, { driver: 'b', status: 'failed', error: 'wrong rows' }] },
      { name: 'execute', results: [{ driver: 'a', status: 'ok', count: { perOp: 200, unsteady: true } }, { driver: 'b', status: 'ok', count: { perOp: 300 } }] },
    ],
  };
  assert.deepEqual(countsOf(results, ['A', 'B'], ['do', 'execute']), {
    byCommit: { A: { counts: { do: 100, execute: 200 }, unsteady: ['execute'] }, B: { error: 'do: wrong rows' } },
    floors: { do: 0.1, execute: 3.5 },
  });
  assert.deepEqual(countRequest({ repo: '/r', pkg: 'mysql2', commits: ['A', 'B'], benches: ['do'], out: '/o', json: '/o/x.json' }),
    { benches: ['do'], drivers: ['mysql2@git:/r#A', 'mysql2@git:/r#B'], count: 'instructions', out: '/o', json: '/o/x.json', flags: { quiet: true } });
});

const repo = makeDriverRepo(join(base, 'mysql2'));
const commits = [];
for (let i = 1; i <= 12; i++) {
  const files = { 'README.md': (text) => `${text}\nStep ${i}.\n` };
  // The sixth declares a dependency its lockfile lacks (a file: one, so that npm asks no registry):
  // npm ci refuses it, and bisect skips it.
  if (i === 6) files['package.json'] = (text) => text.replace('"dependencies": {', '"dependencies": {\n    "mdb-missing": "file:./no-such-dir",');
  if (i === 7) files['package.json'] = (text) => text.replace('\n    "mdb-missing": "file:./no-such-dir",', '');
  // The ninth adds work to every query (as in ci-driver.test.js, a longer loop: a clearer step).
  if (i === 9) files['lib/base/connection.js'] = addedQueryWork(300);
  commits.push(repo.commit(i === 9 ? 'a loop in the query path' : `step ${i}`, files));
}
const status = () => [gitIn(repo.dir, '--no-optional-locks', 'status', '--porcelain'), gitIn(repo.dir, 'rev-parse', 'HEAD')];
const cache = join(base, 'cache');
const bisect = (args, timeoutMs = 60000) => {
  const dirs = isolatedDirs();
  return runCli(['bisect', repo.dir, '--bench', 'do', '--smoke', '--out', dirs.out, ...args],
    { tmp: dirs.tmp, env: { MYSQL_DRIVER_BENCH_CACHE: cache }, timeoutMs }).then((r) => ({ ...r, dirs }));
};

test('bad input, one line each, exit 2: a ref that does not exist, refs in the wrong order, good and bad one commit, a package the repository does not hold', async () => {
  const before = status();
  const none = await bisect(['--good', 'no-such-ref', '--bad', 'HEAD']);
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /^mysql-driver-bench: error: --good no-such-ref: no commit 'no-such-ref' in .* — name a branch, tag or commit of it/);
  const swapped = await bisect(['--good', 'HEAD', '--bad', 'v1']);
  assert.equal(swapped.code, 2, swapped.stderr);
  assert.match(swapped.stderr, /^mysql-driver-bench: error: --good HEAD \([0-9a-f]{7}\) is not an ancestor of --bad v1 \([0-9a-f]{7}\) — they are in the wrong order: swap them\n$/);
  const same = await bisect(['--good', 'main', '--bad', 'HEAD']);
  assert.equal(same.code, 2, same.stderr);
  assert.match(same.stderr, /^mysql-driver-bench: error: --good main and --bad HEAD are the same commit/);
  const other = await bisect(['--good', 'v1', '--bad', 'HEAD', '--package', 'mysql']);
  assert.equal(other.code, 2, other.stderr);
  assert.match(other.stderr, /^mysql-driver-bench: error: --good [0-9a-f]{7}: mysql@git:.*: commit [0-9a-f]{7} of .* holds 'mysql2', not mysql — write mysql2@git:/);
  // A --good a merge brought in: an ancestor of --bad, not on its first-parent line.
  const merged = makeBranchedRepo(join(base, 'merged'));
  gitIn(merged.repo.dir, 'checkout', '-q', 'pr');
  merged.repo.commit('the pull request, again', { 'README.md': 'pr again\n' });
  gitIn(merged.repo.dir, 'checkout', '-q', 'main');
  gitIn(merged.repo.dir, 'merge', '-q', '--no-ff', '-X', 'ours', '-m', 'merge the pull request', 'pr');
  const side = await runCli(['bisect', merged.repo.dir, '--bench', 'do', '--smoke', '--good', merged.head, '--bad', 'main'], { env: { MYSQL_DRIVER_BENCH_CACHE: cache } });
  assert.equal(side.code, 2, side.stderr);
  assert.match(side.stderr, /^mysql-driver-bench: error: --good [0-9a-f]{40} \([0-9a-f]{7}\) is an ancestor of --bad main \([0-9a-f]{7}\) but not on its first-parent line: a merge brought it in — bisect walks --bad's first-parent line/);
  for (const r of [none, swapped, same, other]) {
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(noStackTrace(r.stderr));
    assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
  }
  assert.deepEqual(status(), before);
});

test('bisect finds the commit that added the loop, skipping the one that cannot be installed; the good commits share one install; the repository is only read', async () => {
  const before = status();
  const dirs = isolatedDirs();
  const json = join(dirs.base, 'bisect.json');
  const r = await bisect(['--good', 'v1', '--bad', 'HEAD', '--json', json], 900000);
  if (process.env.BISECT_TEST_LOG) writeFileSync(process.env.BISECT_TEST_LOG, `$ bisect … (exit ${r.code})\n--- stderr\n${r.stderr}--- stdout\n${r.stdout}`);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^first moved commit: ${commits[8].slice(0, 7)} a loop in the query path\n  do: \\+\\d+(?:\\.\\d+)? % more instructions/op against its parent ${commits[7].slice(0, 7)} \\([\\d,]+ → [\\d,]+\\)\n$`)); // +8 % when the change is 8.00 %
  assert.match(r.stderr, new RegExp(`^\\[1\\] ${commits[5].slice(0, 7)} skip  \\(.*cannot install the dependencies.*\\)  step 6 `, 'm'));
  assert.match(r.stderr, new RegExp(`^\\[\\d\\] ${commits[8].slice(0, 7)} bad   do [\\d,]+  a loop in the query path`, 'm'));
  const report = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(report.answer.found, true);
  assert.equal(report.answer.commit, commits[8]);
  assert.equal(report.answer.parent, commits[7]);
  assert.ok(report.answer.deltas[0].changePct > 0.5, JSON.stringify(report.answer));
  assert.deepEqual(report.steps.map((s) => [s.commit, s.verdict]), [
    [gitIn(repo.dir, 'rev-parse', 'v1'), 'good'], [commits[11], 'bad'],
    [commits[5], 'skip'], [commits[4], 'good'], [commits[7], 'good'], [commits[9], 'bad'], [commits[8], 'bad']]);
  // Every commit but the sixth has v1's production dependencies: one install, shared.
  assert.equal(readdirSync(join(cache, 'git', 'deps')).length, 1);
  assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
  assert.deepEqual(status(), before);
});

// Under --smoke, commits of the same code counted up to 1.2 % apart here (v1 25,333 and 25,428 in two
// runs; step 5 25,413, 25,636), far beyond the 0.1 % floor a run states: --threshold 3 makes "no
// move" certain (the loop's step is about 10 %).
test('good and bad within --threshold: one line saying so, exit 1, nothing bisected', async () => {
  const dirs = isolatedDirs();
  const json = join(dirs.base, 'none.json');
  const r = await bisect(['--good', 'v1', '--bad', commits[4], '--threshold', '3', '--json', json, '--quiet'], 400000);
  assert.equal(r.code, 1, `${r.stderr}${r.stdout}${readFileSync(json, 'utf8')}`);
  assert.match(r.stderr, /^mysql-driver-bench: bisect: --good [0-9a-f]{7} and --bad [0-9a-f]{7} do not differ beyond the noise floor and --threshold 3 % on do: nothing to bisect\n$/);
  assert.equal(r.stdout, '');
  assert.deepEqual(JSON.parse(readFileSync(json, 'utf8')).answer, { found: false, why: 'no move between good and bad' });
  assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
});
