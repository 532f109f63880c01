// The allocation gate, no Valgrind: on a small repository the test makes, a head that allocates 64 KB
// of short-lived arrays per query fails `ci-driver --count allocations` with a line in bytes
// allocated and its writes/op beside it (no functions: a native count keeps no profile); a head with
// the base's lib/ passes; `bisect --count allocations` names the allocating commit; the repository is
// only read. The wording's pure parts: test/unit/gate-comment.test.js and test/unit/gate-words.test.js.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addedQueryAllocation, gitIn, makeDriverRepo } from '../helpers/driver-repo.js';
import { isolatedDirs, leftovers, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const base = mkdtempSync(join(tmpdir(), 'mdb-allocation-gate-test-'));
after(() => {
  rmSync(base, { recursive: true, force: true });
  removeIsolatedDirs();
});

// 8 arrays of 1,024 small integers: 64 KB a query, over ten times what mysql2's `do` allocates.
const ARRAYS = 8;
const LENGTH = 1024;

test('ci-driver --count allocations: a head allocating 64 KB more a query fails, its twin passes; bisect --count allocations names the commit', async () => {
  const repo = makeDriverRepo(join(base, 'mysql2'));
  const docs = repo.commit('docs only', { 'README.md': (text) => `${text}\nMore words.\n` });
  const allocating = repo.commit('arrays in the query path', { 'lib/base/connection.js': addedQueryAllocation(ARRAYS, LENGTH) });
  const status = () => [gitIn(repo.dir, '--no-optional-locks', 'status', '--porcelain'), gitIn(repo.dir, 'rev-parse', 'HEAD')];
  const before = status();
  const env = { MYSQL_DRIVER_BENCH_CACHE: join(base, 'cache') };
  const gate = (args) => {
    const dirs = isolatedDirs();
    const comment = join(dirs.base, 'comment.md');
    return runCli(['ci-driver', 'do', '--repo', repo.dir, '--count', 'allocations', '--out', dirs.out, '--comment', comment, ...args], { tmp: dirs.tmp, env, timeoutMs: 300000 })
      .then((r) => ({ ...r, comment: existsSync(comment) ? readFileSync(comment, 'utf8') : null, dirs }));
  };

  const more = await gate(['--base', 'v1']);
  if (process.env.ALLOCATION_GATE_TEST_LOG) writeFileSync(process.env.ALLOCATION_GATE_TEST_LOG, `$ ci-driver … (exit ${more.code})\n--- stderr\n${more.stderr}--- stdout\n${more.stdout}--- comment\n${more.comment}`);
  assert.equal(more.code, 1, more.stderr);
  assert.doesNotMatch(more.stderr, /collected before the driver loads/, 'a native count has no second heap state');
  const [, from, to] = /REGRESSION: do: the head needs \+\d+\.\d+ % more bytes allocated per operation than the base \(([\d,]+) → ([\d,]+)\), beyond 1 %/.exec(more.stdout) ?? [];
  assert.ok(from, more.stdout);
  const extra = Number(to.replace(/,/g, '')) - Number(from.replace(/,/g, ''));
  assert.ok(Math.abs(extra / (ARRAYS * LENGTH * 8) - 1) < 0.1, `${extra} bytes more a query, against ${ARRAYS * LENGTH * 8}`);
  // The writes beside it (the same: the arrays write nothing), and no functions: no profile was kept.
  assert.match(more.stdout, /^do, beside it: writes\/op 1\.0 → 1\.0 \(±0\.00 %\), sent B\/op /m);
  assert.doesNotMatch(`${more.stdout}${more.comment}`, /functions whose|--jit-names/);
  assert.match(more.comment, /^❌ `do` needs \d+ % more bytes allocated per operation than the base: worse\n/, 'the verdict first, in the counter\'s words');
  assert.match(more.comment, /^\*\*`do`\*\*, beside it: writes\/op 1\.0 → 1\.0/m);

  const twin = await gate(['--base', 'v1', '--head', docs]);
  assert.equal(twin.code, 0, twin.stderr);
  assert.match(twin.stdout, /✅ no bench needs more than 1 % more bytes allocated per operation/);
  assert.match(twin.comment, /^✅ Nothing moved: no bench needs more than 1 % more bytes allocated per operation than the base \(1 bench, \d+ s\)\.\n\n<!-- mysql-driver-bench: nothing moved -->\n<!-- mysql-driver-bench gate -->\n$/);

  const dirs = isolatedDirs();
  const found = await runCli(['bisect', repo.dir, '--good', 'v1', '--bad', 'HEAD', '--bench', 'do', '--count', 'allocations', '--out', dirs.out], { tmp: dirs.tmp, env, timeoutMs: 300000 });
  assert.equal(found.code, 0, found.stderr);
  assert.match(found.stdout, new RegExp(`^first moved commit: ${allocating.slice(0, 7)} arrays in the query path\n  do: \\+\\d+(?:\\.\\d+)? % more bytes allocated/op against its parent ${docs.slice(0, 7)} \\([\\d,]+ → [\\d,]+\\)\n$`));
  assert.match(found.stderr, /^bisect: counting bytes allocated per operation at --good /m);

  for (const r of [more, twin, { dirs }]) assert.deepEqual(leftovers(r.dirs.tmp), { files: [], processes: [] });
  assert.deepEqual(status(), before);
});
