// --count cycles, the parts without a server: the estimate, reading a dump's cache events, the
// registry and the CLI taking it, and its words in the reports. The real count: count-cycles.test.js.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import cycles, { CACHE_CONFIG, CYCLE_WEIGHTS, estimatedCycles, weighedEvents } from '../../lib/replay/counters/cycles.js';
import { countSettings, counterNamed, counterNames, registerCounter } from '../../lib/replay/counters/index.js';
import { parseCallgrind, parseEventTotals, selfSum } from '../../lib/replay/callgrind.js';
import { countIncomparability } from '../../lib/results/compare-counts.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { renderTable } from '../../lib/reporting/table.js';
import { resultsProblem, serialize } from '../../lib/results/file.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { runCli } from '../helpers/cli.js';
import { fixedLayoutLauncher } from '../../lib/measuring/processes/same-program.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-cycles-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// callgrind --cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 /bin/true (valgrind 3.19).
const DUMP = gunzipSync(readFileSync(new URL('../fixtures/callgrind-cache-sim.cg.gz', import.meta.url))).toString('utf8');

test('estimated cycles: L1 hits + 5 × LL hits + 35 × RAM accesses, and mispredictions only when weighted', () => {
  // 1,000 accesses, 100 of them L1 misses, 10 of those RAM: 900 + 5 × 90 + 35 × 10.
  const events = { Ir: 700, Dr: 200, Dw: 100, I1mr: 40, D1mr: 50, D1mw: 10, ILmr: 4, DLmr: 5, DLmw: 1, Bc: 300, Bcm: 20, Bi: 10, Bim: 5 };
  assert.equal(estimatedCycles(events), 900 + 450 + 350);
  assert.equal(estimatedCycles(events, { ...CYCLE_WEIGHTS, branchMiss: 10 }), 1700 + 250);
  assert.equal(estimatedCycles({ Ir: 1000 }), 1000, 'no misses: one cycle an instruction');
  assert.deepEqual(CYCLE_WEIGHTS, { l1Hit: 1, llHit: 5, ramHit: 35, branchMiss: 0 });
  assert.ok(Object.isFrozen(CYCLE_WEIGHTS));
});

test("a dump's cache and branch events are read from its summary line; its profile still ranks by Ir", () => {
  const events = parseEventTotals(DUMP);
  assert.deepEqual(Object.keys(events), ['Ir', 'Dr', 'Dw', 'I1mr', 'D1mr', 'D1mw', 'ILmr', 'DLmr', 'DLmw', 'Bc', 'Bcm', 'Bi', 'Bim']);
  assert.deepEqual(Object.values(events), [126561, 27888, 11769, 1083, 991, 580, 1065, 782, 548, 25647, 3137, 280, 151]);
  assert.deepEqual(parseEventTotals('events: Ir\ntotals: 5\n'), { Ir: 5 });
  assert.equal(parseEventTotals('events: Ir\n'), null);
  // The profile diff reads the first event: instructions, as in an instruction count's dump.
  const parsed = parseCallgrind(DUMP);
  assert.equal(parsed.events[0], 'Ir');
  assert.equal(selfSum(parsed), parsed.totals);
});

test("a window's estimated cycles and their breakdown, V8's compile work left out", () => {
  const cycles1 = estimatedCycles(parseEventTotals(DUMP));
  assert.equal(cycles1, (126561 + 27888 + 11769 - 2654) + 5 * (2654 - 2395) + 35 * 2395);
  const window = cycles.readWindow(DUMP);
  assert.equal(window.figure, cycles1, 'no compile in this window');
  assert.equal(window.jit, 0);
  const breakdown = window.events;
  assert.deepEqual(breakdown, { instructions: 126561, dataAccesses: 27888 + 11769, l1Misses: 2654, llMisses: 2395, branchMispredicts: 3288 });
  // The breakdown weighs to the same estimate, under any weights: what calibrate --count re-weighs.
  assert.equal(weighedEvents(breakdown), cycles1);
  const heavy = { l1Hit: 1, llHit: 9, ramHit: 60, branchMiss: 15 };
  assert.equal(weighedEvents(breakdown, heavy), estimatedCycles(parseEventTotals(DUMP), heavy));
  // A compile called from JIT code: its events, inclusive, leave the figure and its breakdown.
  const compiling = [
    'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim', 'summary: 1000 200 100 10 10 0 5 5 0 100 10 0 0',
    'fn=(1) Builtins_CEntry_Return1_ArgvOnStack_NoBuiltinExit', '0 600 100 50 5 5 0 2 2 0 50 5 0 0',
    'cfn=(2) v8::internal::Runtime_CompileLazy(int, unsigned long*, v8::internal::Isolate*)', 'calls=1 0', '0 400 100 50 5 5 0 3 3 0 50 5 0 0',
    'fn=(2)', '0 400 100 50 5 5 0 3 3 0 50 5 0 0', '',
  ].join('\n');
  const compiled = cycles.readWindow(compiling);
  assert.equal(compiled.events.instructions, 600);
  assert.equal(compiled.figure, estimatedCycles({ Ir: 600, Dr: 100, Dw: 50, I1mr: 5, D1mr: 5, ILmr: 2, DLmr: 2, Bcm: 5 }));
  assert.equal(compiled.jit, estimatedCycles({ Ir: 400, Dr: 100, Dw: 50, I1mr: 5, D1mr: 5, ILmr: 3, DLmr: 3, Bcm: 5 }));
  // A dump of an instruction count (no cache events) is refused, not read as zero misses.
  assert.throws(() => cycles.readWindow('events: Ir\nsummary: 1\n'), /no cache events/);
});

test('the registry lists cycles after instructions, a whole entry with its fixed caches', () => {
  assert.deepEqual(counterNames(), ['instructions', 'cycles']);
  assert.equal(counterNamed('cycles'), cycles);
  assert.equal(cycles.unit, 'est. cycles/op');
  assert.deepEqual(cycles.cacheConfig, { I1: '32768,8,64', D1: '32768,8,64', LL: '8388608,16,64' });
  assert.equal(cycles.cacheConfig, CACHE_CONFIG);
  for (const arg of ['--cache-sim=yes', '--branch-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64']) assert.ok(cycles.toolArgs.includes(arg), arg);
  assert.equal(cycles.noiseFloorPct, 0.15);
  // Every field an entry needs (registerCounter refuses one lacking any).
  registerCounter({ ...cycles, name: 'cycles-copy' })();
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
