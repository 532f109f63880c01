// ci-driver judges a pull request's head against its merge-base with --base, not the base's tip: on a
// small repository the test makes, master's branch point allocates 64 KB a query, master then drops
// that cost, and a branch made from the branch point that changes only its README passes (the rows:
// the branch point and the head; the three commits named). A branch made from master's tip that puts
// the cost back, the same lib/ as the first branch's, fails: what judging that branch against the tip
// would have read. A head already in the base and an unrelated history are refused in one line, exit 2.
// Counted natively (--count allocations): seconds, no Valgrind.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addedQueryAllocation, gitIn, makeDriverRepo } from '../helpers/driver-repo.js';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { resultsValidator } from '../../lib/results/file.js';

const base = mkdtempSync(join(tmpdir(), 'mdb-ci-driver-merge-base-test-'));
after(() => {
  rmSync(base, { recursive: true, force: true });
  removeIsolatedDirs();
});

const CONNECTION = 'lib/base/connection.js';
const short = (sha) => sha.slice(0, 7);

test("a branch behind master is judged against its branch point, not against master's later optimisation; a head in the base or with no common history is refused", async () => {
  const repo = makeDriverRepo(join(base, 'mysql2'));
  const original = readFileSync(join(repo.dir, CONNECTION), 'utf8');
  const point = repo.commit('arrays in the query path', { [CONNECTION]: addedQueryAllocation(8, 1024) });
  gitIn(repo.dir, 'checkout', '-q', '-b', 'pr');
  const pr = repo.commit('docs only', { 'README.md': (text) => `${text}\nMore words.\n` });
  gitIn(repo.dir, 'checkout', '-q', 'main');
  const tip = repo.commit('no arrays in the query path', { [CONNECTION]: original });
  gitIn(repo.dir, 'checkout', '-q', '-b', 'slower');
  const slower = repo.commit('arrays in the query path again', { [CONNECTION]: addedQueryAllocation(8, 1024) });
  gitIn(repo.dir, 'checkout', '-q', 'main');
  const lonely = gitIn(repo.dir, 'commit-tree', `${tip}^{tree}`, '-m', 'a root of its own');
  // The two branches' code is one: pr against master's tip would read what slower does.
  assert.equal(gitIn(repo.dir, 'rev-parse', 'pr:lib'), gitIn(repo.dir, 'rev-parse', 'slower:lib'));
  const status = () => [gitIn(repo.dir, '--no-optional-locks', 'status', '--porcelain'), gitIn(repo.dir, 'rev-parse', 'HEAD')];
  const before = status();
  const env = { MYSQL_DRIVER_BENCH_CACHE: join(base, 'cache') };
  const gate = (args) => {
    const dirs = isolatedDirs();
    return runCli(['ci-driver', 'do', '--repo', repo.dir, '--count', 'allocations', '--out', dirs.out, ...args], { tmp: dirs.tmp, env, timeoutMs: 120000 })
      .then((r) => ({ ...r, dirs }));
  };
  const resultsOf = (r) => {
    const file = readdirSync(r.dirs.out).find((f) => f.startsWith('ci-driver-'));
    return JSON.parse(readFileSync(join(r.dirs.out, file), 'utf8'));
  };

  const behind = await gate(['--base', 'main', '--head', 'pr']);
  assert.equal(behind.code, 0, behind.stderr);
  assert.doesNotMatch(`${behind.stdout}${behind.stderr}`, /REGRESSION/);
  assert.match(behind.stdout, /✅ no bench needs more than 1 % more bytes allocated per operation/);
  assert.match(behind.stdout, new RegExp(`^mysql2@[\\d.]+\\+${short(pr)} \\(head, ${short(pr)}\\) against its merge-base mysql2@[\\d.]+\\+${short(point)} \\(${short(point)}\\) with main \\(tip ${short(tip)}\\), bytes allocated per operation, threshold 1 %:$`, 'm'));
  const results = resultsOf(behind);
  assert.deepEqual(results.drivers.map((d) => d.git.commit), [point, pr], 'the rows: the merge-base and the head');
  assert.deepEqual(results.gate, { head: pr, mergeBase: point, baseTip: tip, baseRef: 'main' });
  const check = resultsValidator();
  assert.ok(check(results), JSON.stringify(check.errors?.[0]));

  const again = await gate(['--base', 'main', '--head', 'slower']);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stdout, /REGRESSION: do: the head needs \+\d+\.\d+ % more bytes allocated per operation than the base/);
  assert.match(again.stdout, new RegExp(`against its merge-base mysql2@[\\d.]+\\+${short(tip)} \\(${short(tip)}\\) with main \\(its tip\\),`));
  assert.deepEqual(resultsOf(again).gate, { head: slower, mergeBase: tip, baseTip: tip, baseRef: 'main' });

  const inBase = await gate(['--base', 'main', '--head', 'v1']);
  assert.equal(inBase.code, 2);
  assert.match(inBase.stderr, new RegExp(`^mysql-driver-bench: error: --head v1 \\([0-9a-f]{7}\\) is already in the history of --base main \\(${short(tip)}\\): it has no commit of its own to judge — give the branch to judge as the head, or an older base\\n$`));
  const unrelated = await gate(['--base', lonely, '--head', 'pr']);
  assert.equal(unrelated.code, 2);
  assert.match(unrelated.stderr, new RegExp(`^mysql-driver-bench: error: --base ${lonely} and --head pr share no history in \\S+: no merge-base to judge the head against — [^\\n]*fetch-depth: 0\\)\\n$`));
  for (const r of [inBase, unrelated]) assert.ok(noStackTrace(r.stderr));

  for (const r of [behind, again, inBase, unrelated]) assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
  assert.deepEqual(status(), before);
});
