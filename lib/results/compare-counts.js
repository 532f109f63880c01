// Two --count runs compared row by row (pure). A count does not move with the host, so
// a row's change is judged directly (no anchor): beyond the count's noise floor and --threshold, a
// row doing more work per operation (a change above 0) is a regression. Runs whose counts were taken differently
// (Node, V8 flags, Valgrind, a driver's options) are refused, naming what differs; runs counted on
// different platforms (settings.count.platform: CPU, kernel, glibc, the harness's commit) are
// compared with a wider noise floor, and the one line that says what differs.
import { countDeltaPct, countFloorPct } from './counts.js';
import { rowKey } from '../common/row-key.js';

// The spread of one set's counts across two platforms: a 16-core Intel Xeon under Ubuntu 24.04 (glibc
// 2.39) against a 2-core AMD EPYC under Debian 12 (glibc 2.36), the same Node, Valgrind, drivers and
// sets: every row within 0.3 %, median 0.04 %. The floor of two runs whose platforms differ.
export const CROSS_HOST_FLOOR_PCT = 0.3;

// The spread of one set's counts taken by two commits of the harness itself, the drivers, sets, Node
// and host the same: a driver that captures a stack per query (mysql2's promise wrapper) walks the
// harness's own frames too, and they change with the harness (the Δ's profile: stack walking).
// One refactor (a79af4d) moved mysql's `do` by +0.33 % (42,446 → 42,584); the 13 rows of mysql2
// releases' `do` moved +0.09 to +0.89 % between commits 3604c57 and 02e3d61 (most by about 90
// instructions/op; docs/history/2026-11-27-bisect.md). The floor of two runs whose harness differs.
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

/**
 * Pure: how two count runs' platforms compare: { differs: ['glibc 2.36 → 2.39', …] (empty: the
 * same; null: unknown, a run counted before platforms were recorded), note: compare's one line, or
 * null when the platforms are the same }.
 */
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
 * Pure: { kind (what was counted: 'instructions'), floorPct (the floor of a bench without its own), threshold, rows
 * (each with its bench's floorPct, and unsteady when a side's windows held a one-off event), regressions, platform (platformChange) }. A row's changePct is the new
 * run's count per operation ÷ the base's − 1 (in %, + is more work). The floor is at
 * least CROSS_HOST_FLOOR_PCT when the platforms differ, CROSS_HARNESS_FLOOR_PCT when the harness's commits do.
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
