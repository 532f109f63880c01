// Where a count process runs (lib/replay/count-sandbox.js): a directory named by what it counts, the
// same in every run and clone, shared by twins, linking the harness and a checkout, and removed after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutSpec, makeSandbox, sandboxName } from '../../lib/replay/count-sandbox.js';

const harness = fileURLToPath(new URL('../..', import.meta.url));

test("a sandbox's name follows what its process counts, and only that: one length, the same every time", () => {
  const a = sandboxName({ row: 'mysql2@git:abc', items: [['do', 'd1', 1024, 64]] });
  assert.match(a, /^mdb-[0-9a-f]{12}$/);
  assert.equal(sandboxName({ row: 'mysql2@git:abc', items: [['do', 'd1', 1024, 64]] }), a);
  assert.notEqual(sandboxName({ row: 'mysql2@git:abd', items: [['do', 'd1', 1024, 64]] }), a);
  assert.notEqual(sandboxName({ row: 'mysql2@git:abc', items: [['do', 'd2', 1024, 64]] }), a);
});

test("a checkout's spec points at the sandbox's link; options after the directory are kept; other specs are not checkouts", () => {
  const exists = (p) => p === '/cache/git/commits/abc';
  assert.deepEqual(checkoutSpec('mysql2@file:/cache/git/commits/abc', '/tmp/mdb-x/d', exists), { spec: 'mysql2@file:/tmp/mdb-x/d', dir: '/cache/git/commits/abc' });
  assert.deepEqual(checkoutSpec('mysql2@file:/cache/git/commits/abc:disableEval=true', '/tmp/mdb-x/d', exists), { spec: 'mysql2@file:/tmp/mdb-x/d:disableEval=true', dir: '/cache/git/commits/abc' });
  assert.equal(checkoutSpec('mysql2', '/tmp/mdb-x/d', exists), null);
  assert.equal(checkoutSpec('mysql2@3.9.0', '/tmp/mdb-x/d', exists), null);
  assert.equal(checkoutSpec('mysql2@file:/nowhere', '/tmp/mdb-x/d', exists), null);
});

test('a sandbox links the harness and the checkout, holds copies of the sets and the job; twins share it; the last one out removes it', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mdb-sandbox-test-'));
  try {
    const set = join(scratch, 'do-set.json');
    writeFileSync(set, '{"set":1}');
    const checkout = mkdtempSync(join(scratch, 'checkout-'));
    const identity = { test: scratch, row: 'x' };
    const items = [{ bench: 'do', set, warmup: 16, ops: 4 }];
    const one = makeSandbox({ spec: `mysql2@file:${checkout}`, items, primer: items, chunks: 3, identity });
    const two = makeSandbox({ spec: `mysql2@file:${checkout}`, items, primer: items, chunks: 3, identity });
    assert.equal(one.dir, two.dir, 'an A/A twin counts in the same directory');
    assert.equal(basename(one.dir), sandboxName(identity));
    assert.equal(readlinkSync(join(one.dir, 'h')), harness);
    assert.equal(readlinkSync(join(one.dir, 'd')), checkout);
    assert.equal(one.entry, join(one.dir, 'h', 'lib', 'replay', 'count-entry.cjs'));
    const job = JSON.parse(readFileSync(one.job, 'utf8'));
    assert.equal(job.items[0].spec, `mysql2@file:${join(one.dir, 'd')}`);
    assert.equal(job.items[0].set, join(one.dir, 'set-00.json'));
    assert.equal(readFileSync(job.items[0].set, 'utf8'), '{"set":1}');
    assert.equal(job.primer.length, 1);
    assert.deepEqual(Object.keys(one.env).sort(), ['MYSQL_DRIVER_BENCH_CACHE', 'PATH', 'TZ', 'UV_THREADPOOL_SIZE'].concat(process.env.VALGRIND_LIB ? ['VALGRIND_LIB'] : []).sort());
    one.remove();
    assert.ok(existsSync(two.dir), 'kept while its twin counts');
    two.remove();
    assert.equal(existsSync(two.dir), false);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
