// --count cycles, for real: one --smoke count of `do` on mysql2 under callgrind's simulated caches
// (Valgrind, the embedded server for the capture). The parts without them: count-cycles-unit.test.js.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { CACHE_CONFIG } from '../../lib/replay/counters/cycles.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);

test('--count cycles estimates a row\'s cycles per operation, above its instructions, with the breakdown and a kept profile', async () => {
  const { out, tmp } = isolatedDirs();
  const { host, port, user, password, database } = state.target;
  const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
  const r = await runCli(['do', '--replay', '--count', 'cycles', '--smoke', '--drivers', 'mysql2', '--out', out, '--json', '-'], { env, tmp, timeoutMs: 300000 });
  assert.equal(r.code, 0, r.stderr);
  const results = JSON.parse(r.stdout);
  assert.equal(results.settings.count.what, 'cycles');
  assert.deepEqual(results.settings.count.cacheConfig, CACHE_CONFIG);
  const [row] = results.benches[0].results;
  assert.equal(row.count.what, 'cycles');
  assert.equal(row.count.windows.length, 3);
  const { instructions, l1Misses, llMisses, branchMispredicts } = row.count.events;
  assert.ok(instructions > 1000, JSON.stringify(row.count));
  // Every instruction is at least one cycle, and its misses add to it.
  assert.ok(row.count.perOp > instructions, JSON.stringify(row.count));
  assert.ok(l1Misses > 0 && llMisses > 0 && llMisses <= l1Misses && branchMispredicts > 0, JSON.stringify(row.count.events));
  assert.ok(existsSync(join(out, row.count.profile, 'window-1.cg.gz')), 'the row keeps its profile');
  // `profile` reads it, ranking by instructions (Ir, the dumps' first event).
  const file = join(out, readdirSync(out).find((f) => f.endsWith('.json')));
  const p = await runCli(['profile', file, '--bench', 'do', '--a', 'mysql2', '--b', 'mysql2'], { tmp });
  assert.equal(p.code, 0, p.stderr);
  assert.match(p.stdout, new RegExp(`mysql2: ${Math.round(instructions).toLocaleString('en-US')} instructions/op`));
});
