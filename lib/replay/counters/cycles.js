// --count cycles: estimated CPU cycles per operation, from callgrind's simulation of a fixed cache and
// branch predictor, so an operation that touches more memory costs more. The same windows as
// instructions.js; the registry's second entry (index.js says what an entry holds).
import { engineEntry, rootedGroups } from '../callgrind.js';
import { COUNT_MALLOC_TUNABLES, VALGRIND_V8_FLAGS, MARKER, assertValgrind } from '../valgrind.js';
import instructions, { PROFILE_FLAGS } from './instructions.js';
import { addressLayout } from '../../measuring/processes/same-program.js';

// Given explicitly, or callgrind reads the host's CPU (size,associativity,line in bytes). A change to
// it makes counts incomparable (recorded).
export const CACHE_CONFIG = Object.freeze({ I1: '32768,8,64', D1: '32768,8,64', LL: '8388608,16,64' });

const CALLGRIND_ARGS = Object.freeze(['--tool=callgrind', '--instr-atstart=no', `--dump-before=${MARKER}`, '--cache-sim=yes', '--branch-sim=yes',
  ...Object.entries(CACHE_CONFIG).map(([cache, geometry]) => `--${cache}=${geometry}`)]);

// Itamar Turner-Trauring's estimate (pythonspeed.com, "Measuring performance with cachegrind"), as in iai-callgrind
// and CodSpeed: weights fitted to timed replay did no better (docs/history/2026-11-27-cycles.md).
export const PUBLISHED_CYCLE_WEIGHTS = Object.freeze({ l1Hit: 1, llHit: 5, ramHit: 35, branchMiss: 0 });
export const CYCLE_WEIGHTS = PUBLISHED_CYCLE_WEIGHTS;

/** Pure: event totals → the breakdown a row keeps, enough to weigh its events again with other weights. */
export const breakdownOf = (events) => ({
  instructions: events.Ir ?? 0,
  dataAccesses: (events.Dr ?? 0) + (events.Dw ?? 0),
  l1Misses: (events.I1mr ?? 0) + (events.D1mr ?? 0) + (events.D1mw ?? 0),
  llMisses: (events.ILmr ?? 0) + (events.DLmr ?? 0) + (events.DLmw ?? 0),
  branchMispredicts: (events.Bcm ?? 0) + (events.Bim ?? 0),
});

export function weighedEvents(b, weights = CYCLE_WEIGHTS) {
  const accesses = b.instructions + b.dataAccesses;
  return (accesses - b.l1Misses) * weights.l1Hit + (b.l1Misses - b.llMisses) * weights.llHit + b.llMisses * weights.ramHit
    + b.branchMispredicts * weights.branchMiss;
}

export const estimatedCycles = (events, weights = CYCLE_WEIGHTS) => weighedEvents(breakdownOf(events), weights);

export function cycleWindow(text) {
  const counted = rootedGroups(text, engineEntry, ['jit', 'gc']);
  if (!counted || counted.totals.I1mr === undefined) throw new Error('a callgrind dump had no cache events in its summary line');
  const { jit, gc } = counted.groups;
  const own = Object.fromEntries(Object.entries(counted.totals).map(([k, v]) => [k, v - (jit[k] ?? 0) - (gc[k] ?? 0)]));
  return { figure: estimatedCycles(own), jit: estimatedCycles(jit), gc: estimatedCycles(gc), events: breakdownOf(own) };
}

// Above the spread of two runs hours apart at one commit; two checkouts of the same code may differ by
// about as much, as where things lie moves a simulated cache (docs/history/2026-11-27-cycles.md#hours-apart-at-one-commit).
const NOISE_FLOOR_PCT = 0.15;

export default Object.freeze({
  name: 'cycles',
  unit: 'est. cycles/op',
  shortUnit: 'est. cyc/op',
  noun: 'estimated cycles',
  counts: 'estimated cycle counts',
  perOp: 'estimated cycles per operation',
  title: 'Estimated cycles per operation under Valgrind (simulated caches)',
  heading: 'ESTIMATED CYCLES (replay under Valgrind, simulated caches)',
  help: "estimates each row's CPU cycles per operation from callgrind's simulated caches and branch predictor (fixed sizes, not the host's)",
  tool: 'callgrind',
  toolArgs: CALLGRIND_ARGS,
  outputArgs: instructions.outputArgs,
  v8Flags: VALGRIND_V8_FLAGS,
  mallocTunables: COUNT_MALLOC_TUNABLES,
  noiseFloorPct: NOISE_FLOOR_PCT,
  benchFloorsPct: instructions.benchFloorsPct,
  cacheConfig: CACHE_CONFIG,
  // Where pages lie decides which simulated LL sets they fill (docs/history/2026-11-27-cycles.md#one-address-layout).
  fixedLayout: true,
  // The simulated caches start empty when instrumentation is switched on: one window fills them.
  warmWindows: 1,
  // Cache simulation is about twice as slow as an instruction count: a count process may take 30 minutes.
  timeoutS: 1800,
  size: instructions.size,
  readWindow: cycleWindow,
  profileFlags: instructions.profileFlags,
  record: ({ jitNames = false } = {}) => ({ valgrind: assertValgrind(process.env, 'cycles'), valgrindArgs: [...CALLGRIND_ARGS], cacheConfig: { ...CACHE_CONFIG },
    cycleWeights: { ...CYCLE_WEIGHTS }, addressLayout: addressLayout(), v8Flags: [...VALGRIND_V8_FLAGS], mallocTunables: COUNT_MALLOC_TUNABLES, ...(jitNames ? { profileFlags: [...PROFILE_FLAGS] } : {}) }),
  counting: (count) => `each bench × driver in one process under ${count.valgrind} (callgrind, simulated caches), warmed up uninstrumented, then three windows counted`,
  countedWith: (count) => `counted under ${count.valgrind} with simulated caches (I1 ${count.cacheConfig.I1}, D1 ${count.cacheConfig.D1}, LL ${count.cacheConfig.LL}: size,ways,line) and V8's flags for a count (${count.v8Flags.join(' ')}), one process per row`,
  method: (count) => `L1 hits + ${count.cycleWeights.llHit} × LL hits + ${count.cycleWeights.ramHit} × RAM accesses${count.cycleWeights.branchMiss ? ` + ${count.cycleWeights.branchMiss} × branch mispredictions` : ''}, under ${count.valgrind}'s callgrind (--cache-sim, --branch-sim), after an uninstrumented warm-up and a window that fills the caches, three windows of N operations each`,
});
