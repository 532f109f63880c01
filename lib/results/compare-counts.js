// Two --count runs compared row by row (pure): a count does not move with the host, so a row's change is
// judged directly (no anchor). Runs counted differently are refused, naming what differs; runs counted on
// different platforms are compared with a wider floor (docs/replay.md, "The platform").
import { countDeltaPct, countFloorPct } from './counts.js';
import { rowKey } from '../common/row-key.js';

// The floors of two runs whose platforms, or harness commits, differ: the spreads measured across hosts
// and commits (docs/history/2026-11-28-topic-pages.md#instruction-and-cycle-counts-as-replaymd-gave-them).
export const CROSS_HOST_FLOOR_PCT = 0.3;
// A driver that captures a stack per query walks the harness's own frames too, which change with it.
export const CROSS_HARNESS_FLOOR_PCT = 1;

const platformOf = (r) => r.settings?.count?.platform;

/** What must be the same in two runs for their counts to be compared: [what, get]. */
const SAME = [
  ['Node version', (r) => platformOf(r)?.node?.version ?? r.env?.node],
  ['architecture', (r) => platformOf(r)?.node?.arch ?? r.env?.arch], // another instruction set: other instructions
  ['V8 flags', (r) => r.settings?.count?.v8Flags?.toSorted().join(' ')], // a set: in any order the same flags
  ['Valgrind version', (r) => r.settings?.count?.valgrind],
  ['Valgrind options', (r) => r.settings?.count?.valgrindArgs?.join(' ')],
  ['malloc settings', (r) => r.settings?.count?.mallocTunables],
  ['address layout', (r) => r.settings?.count?.addressLayout], // --count cycles' (replay/counters/cycles.js)
  ['libuv thread pool', (r) => r.settings?.count?.threadPool], // which of a row's address-keyed states it counts (replay/valgrind.js)
  ['module loading', (r) => r.settings?.count?.moduleLoading], // the heap start-up leaves, and the engine's feedback from it (replay/valgrind.js)
  ['count design', (r) => r.settings?.count?.process], // one process a bench, or a row's with workers and compile work left out (replay/count.js)
  ['primer', (r) => r.settings?.count?.primer?.join(' ')], // what a count process ran before the counted benches
  ['sandbox', (r) => (r.settings?.count?.sandbox ? JSON.stringify(r.settings.count.sandbox) : undefined)], // where it ran (replay/count-sandbox.js)
  ['cycle weights', (r) => (r.settings?.count?.cycleWeights ? JSON.stringify(r.settings.count.cycleWeights) : undefined)], // --count cycles' (replay/counters/cycles.js)
  ['profile flags', (r) => r.settings?.count?.profileFlags?.join(' ')], // JIT names move the count (replay/counters/instructions.js)
  ['heap state at the start', (r) => (r.settings?.count?.collectedStart ? 'collected' : undefined)], // --collected-start (replay/count-bench.js)
];

const optionsOf = (r) => new Map((r.drivers ?? []).map((d) => [d.name, JSON.stringify(d.variant ?? d.options ?? {})]));

/** One line saying why two count runs cannot be compared, or null. */
export function countIncomparability(base, next) {
  for (const [what, get] of SAME) {
    if (get(base) !== get(next)) return `${what} differ${what.endsWith('s') ? '' : 's'}: ${get(base) ?? 'none'} (base) vs ${get(next) ?? 'none'} (new)`;
  }
  const a = optionsOf(base);
  const b = optionsOf(next);
  for (const [name, options] of a) {
    if (b.has(name) && b.get(name) !== options) return `${name}'s driver options differ: ${options} (base) vs ${b.get(name)} (new)`;
  }
  return null;
}

/** What a platform is told by in compare's line: [what, get]. */
const PLATFORM = [
  ['CPU', (p) => p.cpu?.model],
  ['CPU vendor', (p) => p.cpu?.vendor],
  ['kernel', (p) => p.kernel],
  ['glibc', (p) => p.glibc],
  ['Node build', (p) => p.node?.build],
  ['harness', (p) => (p.harness ? `${p.harness.version}${p.harness.commit ? ` (${p.harness.commit.slice(0, 7)})` : ''}` : undefined)],
  ['simulated cache', (p) => (p.cacheConfig === undefined ? undefined : JSON.stringify(p.cacheConfig))],
];

/** Pure: { differs: ['glibc 2.36 → 2.39', …] (null: unknown), floorPct, note: compare's one line, or null }. */
export function platformChange(base, next, { baseFile = 'base', newFile = 'new' } = {}) {
  const [a, b] = [platformOf(base), platformOf(next)];
  if (!a || !b) {
    const files = [[baseFile, a], [newFile, b]].filter(([, p]) => !p).map(([f]) => `'${f}'`);
    return { differs: null, note: `platform unknown: ${files.join(' and ')} recorded none (counted before 2026-11-27); compared as on one platform` };
  }
  const differs = PLATFORM.filter(([what, get]) => get(a) !== get(b) && !(what === 'CPU vendor' && a.cpu?.model !== b.cpu?.model))
    .map(([what, get]) => `${what} ${get(a) ?? 'unknown'} → ${get(b) ?? 'unknown'}`);
  const harness = differs.some((d) => d.startsWith('harness '));
  const floorPct = differs.length ? (harness ? CROSS_HARNESS_FLOOR_PCT : CROSS_HOST_FLOOR_PCT) : 0;
  const why = harness ? 'the spread between two commits of the harness' : 'the cross-host spread';
  return { differs, floorPct, note: differs.length ? `platform differs: ${differs.join('; ')}: noise floor ${floorPct} % (${why})` : null };
}

/**
 * A row's changePct: the new count per operation ÷ the base's − 1 (in %, + is more work); `unsteady` when
 * a side's windows held a one-off event. Floors widen as platformChange says.
 */
export function compareCounts(base, next, { threshold = null, baseFile = null, newFile = null } = {}) {
  const platform = platformChange(base, next, { baseFile: baseFile ?? 'base', newFile: newFile ?? 'new' });
  const hostFloor = platform.floorPct ?? 0;
  const floorOf = (bench) => Math.max(countFloorPct(base.settings?.count, bench), countFloorPct(next.settings?.count, bench), hostFloor);
  const floorPct = floorOf(null);
  const baseRows = new Map();
  for (const b of base.benches ?? []) for (const r of b.results ?? []) baseRows.set(rowKey(b.name, r.driver), r);
  const rows = [];
  for (const b of next.benches ?? []) {
    for (const r of b.results ?? []) {
      const was = baseRows.get(rowKey(b.name, r.driver));
      if (!was) continue;
      const changePct = countDeltaPct(was.count?.perOp, r.count?.perOp);
      const both = changePct !== null;
      const floor = floorOf(b.name);
      const unsteady = Boolean(was.count?.unsteady || r.count?.unsteady);
      const beyondFloor = both && !unsteady && Math.abs(changePct) > floor;
      const nowFails = was.ok && !r.ok && r.status === 'failed';
      rows.push({
        bench: b.name, driver: r.driver,
        base: was.count?.perOp ?? null, next: r.count?.perOp ?? null,
        changePct, beyondFloor,
        floorPct: floor,
        unsteady,
        regression: threshold !== null && (nowFails || (beyondFloor && changePct > Math.max(threshold, floor))),
        status: r.ok ? 'ok' : r.status,
      });
    }
  }
  return { kind: next.settings?.count?.what ?? null, baseFile, newFile, floorPct, threshold, rows, regressions: rows.filter((x) => x.regression), platform };
}
