// What a run repeats, pure: the password redacted from the command line, the options a results file
// gives back resolving to the same settings, and the differences between two runs in one line each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optionsFromResults } from '../../lib/cli/option-files.js';
import { redactArgv } from '../../lib/common/redact.js';
import { describeDifferences } from '../../lib/results/repeat.js';
import { resolveSettings } from '../../lib/resolve-run.js';
import { parseWake } from '../../lib/measuring/host/wake.js';
import { parseRates } from '../../lib/measuring/run/rate-passes.js';
import { selectBenches } from '../../benchs/index.js';
import { addedBenches } from '../../lib/cli/bench-sources.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/results/replay-client-cost.json', import.meta.url));
const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));

test('redactArgv: a --password value, DB_PASSWORD and a URL password are written ***', () => {
  const argv = ['do', '--password', 'flag-pw-1', '--db-password=flag-pw-2', '--drivers', 'mysql2@git:https://me:tok3n@example.com/r.git#v3', '--host', 'env-pw-3.example'];
  const out = redactArgv(argv, { DB_PASSWORD: 'env-pw-3' });
  const text = out.join(' ');
  for (const secret of ['flag-pw-1', 'flag-pw-2', 'tok3n', 'env-pw-3']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  assert.deepEqual(out.slice(0, 4), ['do', '--password', '***', '--db-password=***']);
  assert.equal(out[5], 'mysql2@git:https://me:***@example.com/r.git#v3');
});

test('optionsFromResults: the options it gives resolve to the same settings; default lengths stay defaults, lengths asked for are given again', () => {
  const drivers = ['mysql', 'mysql2'];
  const cases = [
    [{}, ['do', 'insert']],
    [{ ci: true }, ['do']],
    [{ smoke: true, rounds: 3 }, ['do']],
    [{ rounds: 10, time: 1, warmup: 0.3, processes: 2, lead: 0.001, concurrency: [1, 4] }, ['do']],
    [{ precision: 2, wake: parseWake('spin:2'), jit: 'wait' }, ['do']],
    [{ replay: true }, ['do']],
    [{ network: 'lan', rttVia: 'proxy' }, ['do']],
    [{ rtt: '3' }, ['do']],
    [{ rate: parseRates('50%,2000'), schedule: 'uniform', latencyLimit: 10 }, ['pool_select']],
  ];
  for (const [asked, names] of cases) {
    const benches = selectBenches(names);
    const { settings } = resolveSettings({ drivers, baseline: 'mysql', jit: 'background', ...asked }, benches);
    const { options, benches: again } = optionsFromResults({ settings });
    assert.deepEqual(again, names);
    assert.deepEqual(resolveSettings({ jit: 'background', ...options }, selectBenches(again)).settings, settings, JSON.stringify(asked));
    if (!asked.smoke && !asked.rounds && !asked.precision && !asked.rate) assert.equal(options.rounds, undefined, JSON.stringify(asked));
  }
  const { options } = optionsFromResults({ settings: resolveSettings({ drivers, rounds: 7, time: 1.5, warmup: 0.4 }, selectBenches(['do'])).settings });
  assert.deepEqual([options.rounds, options.time, options.warmup], [7, 1.5, 0.4]);
});

test('optionsFromResults: a run\'s own benches come back as their flags (--sql, --setup, --prepared, --bench-file), not by name', async () => {
  const asked = { drivers: ['mysql', 'mysql2'], baseline: 'mysql', jit: 'background', sql: ['docs/examples/employees.sql'], setup: 'docs/examples/employees-setup.sql', prepared: true, benchFile: ['docs/examples/my-bench.js'] };
  const own = await addedBenches(asked);
  const { settings } = resolveSettings(asked, [...selectBenches(['do']), ...own]);
  assert.deepEqual(settings.benches, ['do', 'my_bench', 'employees']);
  const { options, benches } = optionsFromResults({ settings });
  assert.deepEqual(benches, ['do']);
  assert.deepEqual([options.sql, options.setup, options.prepared, options.benchFile], [asked.sql, asked.setup, true, asked.benchFile]);
  assert.deepEqual(resolveSettings({ jit: 'background', ...options }, [...selectBenches(benches), ...own]).settings, settings);
});

test('describeDifferences: one line per fact that differs (Node, CPU, server, a driver\'s version), none for the same run', () => {
  const original = fixture();
  assert.deepEqual(describeDifferences(original, structuredClone(original), 'a.json'), []);
  const now = structuredClone(original);
  now.env.node = 'v99.0.0';
  now.env.cpuModel = 'Other CPU';
  now.server.version = '11.8.3-MariaDB';
  now.drivers[1].version = '3.9.8';
  const lines = describeDifferences(original, now, 'a.json');
  assert.equal(lines.length, 4, lines.join('\n'));
  assert.equal(lines[3], `--from a.json: driver ${original.drivers[1].name} differs: ${original.drivers[1].version} then, 3.9.8 now`);
  assert.match(lines[0], /^--from a\.json: Node differs: v20\.20\.2 then, v99\.0\.0 now$/);
  assert.match(lines[1], /CPU model differs: AMD EPYC then, Other CPU now/);
  assert.match(lines[2], /server differs: mariadb 10\.11\.19-MariaDB-0\+deb12u1 then, mariadb 11\.8\.3-MariaDB now/);
});

