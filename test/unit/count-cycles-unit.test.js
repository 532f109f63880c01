// --count cycles, the parts without Valgrind: the estimate, reading a dump's cache events and the
// registry. A run's recorded settings, the CLI taking it and the real count: test/integration/count-cycles.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import cycles, { CACHE_CONFIG, CYCLE_WEIGHTS, estimatedCycles, weighedEvents } from '../../lib/replay/counters/cycles.js';
import { counterNamed, counterNames, registerCounter } from '../../lib/replay/counters/index.js';
import { parseCallgrind, parseEventTotals, selfSum } from '../../lib/replay/callgrind.js';

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

test('the registry lists cycles after instructions (allocations last), a whole entry with its fixed caches', () => {
  assert.deepEqual(counterNames(), ['instructions', 'cycles', 'allocations']);
  assert.equal(counterNamed('cycles'), cycles);
  assert.equal(cycles.unit, 'est. cycles/op');
  assert.deepEqual(cycles.cacheConfig, { I1: '32768,8,64', D1: '32768,8,64', LL: '8388608,16,64' });
  assert.equal(cycles.cacheConfig, CACHE_CONFIG);
  for (const arg of ['--cache-sim=yes', '--branch-sim=yes', '--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64']) assert.ok(cycles.toolArgs.includes(arg), arg);
  assert.equal(cycles.noiseFloorPct, 0.15);
  // Every field an entry needs (registerCounter refuses one lacking any).
  registerCounter({ ...cycles, name: 'cycles-copy' })();
});
