// Pure: each bench's fence from a base branch's stored history, as rustc-perf sets a benchmark's
// significance: Q3 + 3 × IQR of the absolute steps between its last commits counted, so that what
// commits off a bench's path move its count is learnt from the branch itself (docs/ci.md#fences-from-the-base-branchs-history).
import { percentileOfSorted } from '../common/stats.js';

export const HISTORY_FORMAT = 'mysql-driver-bench/base-history';
// How many steps a fence is taken from, the fewest it needs, and how many commits a history keeps.
export const FENCE_STEPS = 30;
export const FENCE_MIN_STEPS = 10;
export const HISTORY_COMMITS = 60;

export const emptyHistory = (driver, counted) => ({ format: HISTORY_FORMAT, driver, counted, commits: [] });

export const sameCounting = (a, b) => ['counter', 'node', 'server', 'harness'].every((k) => (a?.[k] ?? null) === (b?.[k] ?? null));

export const countingOf = (results) => ({
  counter: results.settings?.count?.what ?? null, node: results.env?.node ?? null,
  server: results.server?.version ?? null, harness: results.env?.harness?.version ?? null,
});

/** Pure: each git row of a count run as a history's commit: [{ commit, perOp: { [bench]: n } }], in the run's row order. */
export function historyCommits(results) {
  return (results.drivers ?? []).filter((d) => d.git?.commit).map((d) => {
    const perOp = {};
    for (const bench of results.benches ?? []) {
      const row = bench.results.find((r) => r.driver === d.name);
      if (row?.ok && row.count?.perOp > 0 && !row.count.unsteady) perOp[bench.name] = Math.round(row.count.perOp);
    }
    return { commit: d.git.commit, perOp };
  });
}

/** `commits` added or replacing, in `line`'s order (the base's first-parent commits; others dropped), the last `keep`. */
export function withCommits(history, commits, line, keep = HISTORY_COMMITS) {
  const position = new Map(line.map((sha, i) => [sha, i]));
  const byCommit = new Map(history.commits.map((c) => [c.commit, c]));
  for (const c of commits) byCommit.set(c.commit, c);
  const kept = [...byCommit.values()].filter((c) => position.has(c.commit)).sort((a, b) => position.get(a.commit) - position.get(b.commit));
  return { ...history, commits: kept.slice(-keep) };
}

/** Pure: Q1 and Q3 of `values` (linear interpolation between ranks). */
export function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { q1: percentileOfSorted(sorted, 25), q3: percentileOfSorted(sorted, 75) };
}

/** A fence per bench from its last `steps` absolute % changes between commits; none below `min` steps. */
export function benchFences(history, { steps = FENCE_STEPS, min = FENCE_MIN_STEPS } = {}) {
  const benches = [...new Set(history.commits.flatMap((c) => Object.keys(c.perOp)))];
  const fences = {};
  for (const bench of benches) {
    const values = history.commits.map((c) => c.perOp[bench]).filter((v) => v > 0);
    const changes = values.slice(1).map((v, i) => Math.abs((v / values[i] - 1) * 100)).slice(-steps);
    if (changes.length < min) continue;
    const { q1, q3 } = quartiles(changes);
    fences[bench] = { fencePct: q3 + 3 * (q3 - q1), steps: changes.length, q1, q3 };
  }
  return fences;
}

/** Pure: the margin a bench is judged by: its history's fence where it has one and it is above the floor, else the floor. */
export const judgedFloorPct = (fence, floorPct) => (fence && fence.fencePct > floorPct ? fence.fencePct : floorPct);
