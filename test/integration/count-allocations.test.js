// --count allocations, for real (the embedded server for the capture, then no Valgrind): a fixture that
// allocates a known amount per query reads it, one that splits its writes reads twice the writes, and
// a second run on the same replay sets reads every window the same. The pure parts: test/unit/window-meter.test.js.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { EXTRA_BYTES } from '../fixtures/allocating-adapter.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);
const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

test('--count allocations finds a known allocation per query and twice the writes, and repeats exactly', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const drivers = ['mysql2', fixture('allocating-adapter.js'), fixture('split-writes-adapter.js')].join(',');
  const run = async () => {
    const r = await runCli(['do', 'pipelining', '--replay', '--count', 'allocations', '--drivers', drivers, '--out', out, '--json', '-'], { env, tmp, timeoutMs: 300000 });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const first = await run();
  assert.equal(first.settings.count.what, 'allocations');
  const queriesPerOp = { do: 1, pipelining: 10 };
  for (const bench of first.benches) {
    const [plain, allocating, splitting] = bench.results.map((r) => r.count);
    const extraPerQuery = (allocating.perOp - plain.perOp) / queriesPerOp[bench.name];
    assert.ok(Math.abs(extraPerQuery - EXTRA_BYTES) / EXTRA_BYTES < 0.1, `${bench.name}: ${extraPerQuery} bytes more a query, against ${EXTRA_BYTES}`);
    assert.equal(plain.events.writes, queriesPerOp[bench.name], `${bench.name}: one write a query`);
    assert.equal(splitting.events.writes, 2 * plain.events.writes, `${bench.name}: the split adapter writes twice as often`);
    assert.equal(splitting.events.bytesSent, plain.events.bytesSent, `${bench.name}: the same bytes`);
  }
  const second = await run();
  assert.deepEqual(second.benches.map((b) => b.results.map((r) => r.count.windows)), first.benches.map((b) => b.results.map((r) => r.count.windows)));
});
