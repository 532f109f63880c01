// A timed run's bytes allocated, writes and reads per operation, for real (the embedded server): a
// fixture that allocates a known amount per query reads it beside mysql2, and one that splits every
// socket write in two reads twice mysql2's writes. The pure parts: test/unit/allocation-figures.test.js.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { EXTRA_BYTES } from '../fixtures/allocating-adapter.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);
const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

test('a timed run finds a known allocation per query and twice the writes', async (t) => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const drivers = ['mysql2', fixture('allocating-adapter.js'), fixture('split-writes-adapter.js')].join(',');
  const r = await runCli(['do', '--drivers', drivers, '--rounds', '6', '--time', '0.5', '--processes', '1', '--out', out, '--json', '-'], { env, tmp, timeoutMs: 300000 });
  assert.equal(r.code, 0, r.stderr);
  const results = JSON.parse(r.stdout);
  const [plain, allocating, splitting] = results.benches[0].results.map((row) => row.allocation);
  t.diagnostic(JSON.stringify({ plain, allocating, splitting }));
  const extra = allocating.bytesPerOp - plain.bytesPerOp;
  assert.ok(Math.abs(extra - EXTRA_BYTES) / EXTRA_BYTES < 0.1, `${extra} bytes more a query, against ${EXTRA_BYTES}`);
  // One write a query, each a system call of its own: the split adapter makes two. A loaded host
  // adds a few wake-ups of the event loop by V8's threads (writes to an eventfd) to either row.
  assert.ok(plain.writesPerOp >= 1 && plain.writesPerOp < 1.15, `mysql2: ${plain.writesPerOp} writes a query`);
  assert.ok(Math.abs(splitting.writesPerOp - plain.writesPerOp - 1) < 0.15, `${splitting.writesPerOp} writes a query against ${plain.writesPerOp}`);
  assert.ok(plain.readsPerOp >= 1, `mysql2: ${plain.readsPerOp} reads a query`);
});
