// --count cycles, for real: one --smoke count of `do` on mysql2 under callgrind's simulated caches
// (Valgrind, the embedded server for the capture); a run's recorded settings (Valgrind's version) and
// its words in the reports; the CLI taking it. The parts without them: test/unit/count-cycles-unit.test.js.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import cycles, { CACHE_CONFIG, CYCLE_WEIGHTS } from '../../lib/replay/counters/cycles.js';
import { countSettings, counterNamed } from '../../lib/replay/counters/index.js';
import { countIncomparability } from '../../lib/results/compare-counts.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { renderTable } from '../../lib/reporting/table.js';
import { resultsProblem, serialize } from '../../lib/results/file.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { fixedLayoutLauncher } from '../../lib/measuring/processes/same-program.js';

const state = useEmbeddedServer({ prepare: true });
after(removeIsolatedDirs);
const dir = mkdtempSync(join(tmpdir(), 'mdb-cycles-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

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

/** A finished --count cycles run over `do`, as the count writes its rows (settings as the run records them). */
function cyclesRun(perOp) {
  const row = (driver, n) => ({ driver, protocol: 'text', ok: true, status: 'ok', error: null,
    count: { what: 'cycles', perOp: n, ops: 48, warmup: 64, windows: [16 * n, 16 * n, 16 * n], spreadPct: 0,
      events: { instructions: n / 2, l1Misses: 40, llMisses: 3, branchMispredicts: 90 } } });
  return {
    schema: 4, tool: 'mysql-driver-bench', startedAt: '2026-11-28T10:00:00.000Z', finishedAt: null, complete: true, stoppedBy: null,
    env: { host: 'h', node: 'v20.20.2', platform: 'linux', release: '6', arch: 'x64', cpuModel: 'cpu', cpus: 2, memoryGiB: 4 },
    server: { version: '10.11.19-MariaDB', kind: 'mariadb', replayed: true },
    drivers: [{ name: 'mysql2', package: 'mysql2', version: '3.24.5', options: {} }, { name: 'mariadb', package: 'mariadb', version: '3.5.4', options: {} }],
    settings: { mode: 'default', concurrency: 1, baseline: 'mysql2', replay: { figure: 'cycles' }, count: countSettings(cycles) },
    benches: [{ name: 'do', title: 'DO 1', sql: 'DO 1', order: [], results: Object.entries(perOp).map(([driver, n]) => row(driver, n)) }],
  };
}

test('a cycles run records its caches and weights, says est. cycles/op and never "instructions", and is not compared with an instruction count', () => {
  const results = applyDeltas(cyclesRun({ mysql2: 50000, mariadb: 40000 }));
  const count = results.settings.count;
  assert.deepEqual(count.cacheConfig, CACHE_CONFIG);
  assert.deepEqual(count.cycleWeights, CYCLE_WEIGHTS);
  assert.ok(count.valgrindArgs.includes('--LL=8388608,16,64'));
  assert.equal(resultsProblem(JSON.parse(serialize(results))), null, 'valid by docs/results.schema.json');
  for (const text of [renderTable(results), renderResultsMarkdown(results)]) {
    assert.match(text, /est\. cycles\/op/);
    assert.doesNotMatch(text, /instruction/i);
  }
  assert.match(renderTable(results), /ESTIMATED CYCLES/);
  assert.match(renderTable(results), /L1 hits \+ 5 × LL hits \+ 35 × RAM accesses/);
  const instructions = { ...results, settings: { ...results.settings, count: countSettings(counterNamed('instructions')) } };
  assert.match(countIncomparability(instructions, results), /^Valgrind options differ/);
  const reweighted = { ...results, settings: { ...results.settings, count: { ...count, cycleWeights: { ...CYCLE_WEIGHTS, branchMiss: 10 } } } };
  assert.match(countIncomparability(results, reweighted), /^cycle weights differ/);
  // Its processes run with one address layout where setarch -R runs (as on this Debian), and a run
  // whose layout was randomized is not compared with it.
  assert.equal(cycles.fixedLayout, true);
  assert.equal(count.addressLayout, fixedLayoutLauncher() ? 'fixed' : 'randomized (setarch -R could not run)');
  const randomized = { ...results, settings: { ...results.settings, count: { ...count, addressLayout: 'randomized (setarch -R could not run)' } } };
  assert.match(countIncomparability(results, randomized), /^address layout differs/);
});

test('the CLI takes --count cycles (with --replay) and lists it in --help', async () => {
  const help = await runCli(['run', '--help']);
  assert.match(help.stdout.replace(/\s+/g, ' '), /'cycles' estimates each row's CPU cycles per operation/);
  const refused = await runCli(['do', '--count', 'cycles', '--smoke', '--out', join(dir, 'out')]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--count cycles counts the replayed client cost: it needs --replay/);
  const unknown = await runCli(['do', '--replay', '--count', 'cycels', '--smoke', '--out', join(dir, 'out')]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--count cycels: no such counter; the counters are instructions, cycles/);
});
