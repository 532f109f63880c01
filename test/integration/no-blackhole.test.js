// A server without the BLACKHOLE engine: the pipelining bench runs its documented, labelled fallback.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedDirs, runCli, removeIsolatedDirs } from '../helpers/cli.js';
import { useEmbeddedServer } from '../helpers/server.js';

const server = useEmbeddedServer({ database: 'nbh_schema', blackhole: false });
after(removeIsolatedDirs);

test('no BLACKHOLE engine: pipelining falls back to an emptied InnoDB table, and says so', async () => {
  const { target } = server;
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['pipelining', '--smoke', '--out', out, '--database', 'nbh_schema'], {
    tmp, env: { DB_HOST: target.host, DB_PORT: String(target.port), DB_USER: target.user, DB_PASSWORD: target.password },
  });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));
  assert.equal(json.server.blackhole, false);
  const [bench] = json.benches;
  assert.match(bench.note, /no BLACKHOLE engine: into an InnoDB table emptied before each driver/);
  assert.ok(bench.results.every((x) => x.ok), JSON.stringify(bench.results.map((x) => x.error)));
  assert.match(r.stdout, /pipelining: no BLACKHOLE engine/);
});
