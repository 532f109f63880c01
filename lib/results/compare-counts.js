// Two --count runs compared row by row (pure). A count does not move with the host, so
// a row's change is judged directly (no anchor): beyond the count's noise floor and --threshold, a
// row doing more work per operation is a regression. Runs whose counts were taken differently
// (Node, V8 flags, Valgrind, a driver's options) are refused, naming what differs.
import { countDeltaPct, countFloorPct } from './counts.js';
import { rowKey } from '../common/row-key.js';

/** What must be the same in two runs for their counts to be compared: [what, get]. */
const SAME = [
  ['Node version', (r) => r.env?.node],
  ['V8 flags', (r) => r.settings?.count?.v8Flags?.toSorted().join(' ')], // a set: in any order the same flags
  ['Valgrind', (r) => r.settings?.count?.valgrind],
  ['Valgrind options', (r) => r.settings?.count?.valgrindArgs?.join(' ')],
  ['malloc settings', (r) => r.settings?.count?.mallocTunables],
  ['profile flags', (r) => r.settings?.count?.profileFlags?.join(' ')], // JIT names move the count (replay/counters/instructions.js)
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

/**
 * Pure: { kind (what was counted: 'instructions'), floorPct (the floor of a bench without its own), threshold, rows
 * (each with its bench's floorPct, and unsteady when a side's windows held a one-off event), regressions }. A row's changePct is the base's
 * count per operation ÷ the new one's − 1 (in %, + is less work: the sign of an ops/s change).
 */
export function compareCounts(base, next, { threshold = null, baseFile = null, newFile = null } = {}) {
  const floorOf = (bench) => Math.max(countFloorPct(base.settings?.count, bench), countFloorPct(next.settings?.count, bench));
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
        regression: threshold !== null && (nowFails || (beyondFloor && changePct < -Math.max(threshold, floor))),
        status: r.ok ? 'ok' : r.status,
      });
    }
  }
  return { kind: next.settings?.count?.what ?? null, baseFile, newFile, floorPct, threshold, rows, regressions: rows.filter((x) => x.regression) };
}
