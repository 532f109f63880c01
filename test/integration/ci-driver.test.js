// A driver repository's gate (`ci-driver`, what action.yml runs), on a small repository the test
// makes: a head with several % more instructions per operation in its query path fails it with a
// REGRESSION: line naming the bench and a job summary; a head with the base's code passes; the
// repository is only read. Counted under Valgrind (--smoke: an eighth of the operations).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driverVerdict, gateRequest } from '../../lib/gate.js';
import { addedQueryWork, gitIn, makeDriverRepo } from '../helpers/driver-repo.js';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const base = mkdtempSync(join(tmpdir(), 'mdb-ci-driver-test-'));
after(() => {
  rmSync(base, { recursive: true, force: true });
  removeIsolatedDirs();
});

test('the verdict: a bench beyond the threshold is a regression, said as how much more the head does (+); a failed row is named', () => {
  const row = (driver, perOp, delta, ok = true) => ({ driver, ok, status: ok ? 'ok' : 'failed', error: ok ? undefined : 'wrong rows', deltaPct: delta, deltaSignificant: delta === null ? null : delta !== 0,
    ...(perOp ? { count: { what: 'instructions', perOp } } : {}) });
  // The head's count ÷ the base's − 1 (+ is more work), as the run's Δ has it.
  const results = (head, ok = true) => ({ settings: { baseline: 'b', count: { what: 'instructions', noiseFloorPct: 0.05 } },
    benches: [{ name: 'do', deltaReference: 'b', results: [row('b', 99079, 0), row('h', head, head ? Math.round((head / 99079 - 1) * 1e5) / 1e3 : null, ok)] }] });
  const who = { threshold: 1, base: { label: 'b', commit: 'a'.repeat(40) }, head: { label: 'h', commit: 'c'.repeat(40) } };
  const slower = driverVerdict(results(102302), who);
  assert.equal(slower.regressed, true);
  assert.match(slower.lines.join('\n'), /REGRESSION: do: the head needs \+3\.25 % more instructions per operation than the base \(99,079 → 102,302\), beyond 1 %/);
  const within = driverVerdict(results(99500), who);
  assert.equal(within.regressed, false);
  assert.match(within.lines.join('\n'), /✅ no bench needs more than 1 %/);
  const fewer = driverVerdict(results(95000), who);
  assert.equal(fewer.regressed, false, '4 % fewer instructions is no regression');
  const failed = driverVerdict(results(null, false), who);
  assert.deepEqual(failed.failed, ['do · h: wrong rows']);
  assert.doesNotMatch(failed.lines.join('\n'), /✅/);
  assert.deepEqual(gateRequest({ repo: '/r', pkg: null, base: 'B', head: 'H', benches: ['do'], out: '/o', json: '/o/x.json' }),
    { benches: ['do'], drivers: ['git:/r#B', 'git:/r#H'], baseline: 'git:/r#B', count: 'instructions', out: '/o', json: '/o/x.json', flags: { jitNames: true } }, 'the run judges nothing: ci-driver does');
});

test('a head with several % more instructions per operation fails the gate; a head with the base\'s code passes; the repository is only read', async () => {
  const repo = makeDriverRepo(join(base, 'mysql2'));
  repo.commit('docs only', { 'README.md': (text) => `${text}\nMore words.\n` });
  // Counted at --smoke size, which moves up to 1.2 % between runs of one code (an eighth of the
  // operations): 90 iterations added 1.4 % to mysql2's `do` and once read 0.8 %, so the test takes a
  // loop of 500 (about +15 %) and a threshold of 3 %; the 1 % gate on a real repository is in docs/history/2026-11-27-git-refs.md.
  repo.commit('a loop in the query path', {
    'lib/base/connection.js': addedQueryWork(500),
  });
  const status = () => [gitIn(repo.dir, '--no-optional-locks', 'status', '--porcelain'), gitIn(repo.dir, 'rev-parse', 'HEAD')];
  const before = status();
  const gate = (args) => {
    const dirs = isolatedDirs();
    const summary = join(dirs.base, 'summary.md');
    const comment = join(dirs.base, 'comment.md');
    const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
    return runCli(['ci-driver', 'do', '--repo', repo.dir, '--smoke', '--threshold', '3', '--out', dirs.out, '--comment', comment, ...args],
      // USER and LOGNAME as a runner sets them: Valgrind's and vgdb's FIFOs are named after them.
      { tmp: dirs.tmp, env: { MYSQL_DRIVER_BENCH_CACHE: join(base, 'cache'), GITHUB_STEP_SUMMARY: summary, USER: 'runner', LOGNAME: 'runner' }, timeoutMs: 400000 })
      .then((r) => ({ ...r, summary: read(summary), comment: read(comment), dirs }));
  };

  const slower = await gate(['--base', 'v1']);
  assert.equal(slower.code, 1, slower.stderr);
  assert.match(slower.stdout, /REGRESSION: do: the head needs \+\d+\.\d+ % more instructions per operation than the base \([\d,]+ → [\d,]+\)/);
  assert.match(slower.stderr, /^do moved beyond 3 %: counted again from a heap collected before the driver loads$/m, 'the moved bench counted from a second heap state');
  assert.match(slower.comment, /^❌ `do` needs \d+(\.\d+)? % more instructions per operation than the base: worse\n/, 'the verdict first, in words');
  assert.match(slower.comment, /\| `do` \| [\d,]+ \| [\d,]+ \| \*\*\+\d+\.\d+ %\*\* \(collected \+\d+\.\d+ %\) \| [\d,]+ → [\d,]+ \(±0\.00 %\) \|/, 'and the bytes beside it, unchanged by an integer loop');
  assert.match(slower.summary, /^### mysql-driver-bench: instructions per operation, head against base[\s\S]*REGRESSION: do[\s\S]*\| do \| mysql2@/);
  // The added function is named first, in the log and in the comment, from the rows' kept profiles.
  process.stderr.write(`${slower.stdout}\n${slower.comment}\n`);
  assert.match(slower.stdout, /^do, the functions whose instructions per operation changed most: extraWorkForBench \(<driver>\/lib\/base\/connection\.js:\d+\) \+[\d,]+/m);
  assert.match(slower.comment, /\*\*`do`\*\*, the functions whose instructions per operation changed most:\n\n- `extraWorkForBench` in `<driver>\/lib\/base\/connection\.js:\d+` \+[\d,]+\n/);

  const same = await gate(['--base', 'v1', '--head', 'HEAD~1']);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /✅ no bench needs more than 3 % more instructions per operation/);
  assert.match(same.comment, /^✅ Nothing moved: /);
  assert.doesNotMatch(same.stderr, /REGRESSION/);

  const itself = await gate(['--base', 'HEAD', '--head', 'main']);
  assert.equal(itself.code, 2);
  assert.match(itself.stderr, /^mysql-driver-bench: error: --base HEAD and --head main are the same commit \([0-9a-f]{7}\): nothing to compare — /);
  assert.ok(noStackTrace(itself.stderr));
  assert.equal(itself.summary, null);

  for (const r of [slower, same, itself]) assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
  assert.deepEqual(status(), before);
});
