// `bisect`'s judgement, pure: which benches moved between the good and the bad commit, whether a commit's
// counts are good or bad, and which commit to count next (binary search over the first-parent line, a
// skipped commit replaced by its nearest neighbour, as `git bisect skip` does).

/** Pure: a count's change against `from`, in % of whatever it counts (+ is more: instructions, bytes allocated), two decimals. */
export const changePct = (from, to) => Math.round((to / from - 1) * 1e4) / 1e2;

/** Pure: `moved` when the change exceeds the bench's noise floor and (with `thresholdPct`) the threshold. */
export function movedBenches(good, bad, { floors = {}, thresholdPct = null } = {}) {
  return Object.keys(good).map((bench) => {
    const change = changePct(good[bench], bad[bench]);
    const floorPct = floors[bench] ?? 0;
    const moved = Math.abs(change) > floorPct && (thresholdPct === null || Math.abs(change) > thresholdPct);
    return { bench, good: good[bench], bad: bad[bench], changePct: change, floorPct, moved };
  });
}

/** Pure: 'bad' when a moved bench's count is nearer bad's than good's, or with `thresholdPct` that far from good's. */
export function verdictOf(counts, moved, { thresholdPct = null } = {}) {
  const bad = moved.filter((m) => m.moved).some((m) => {
    const count = counts[m.bench];
    if (thresholdPct === null) return Math.abs(count - m.bad) < Math.abs(count - m.good);
    return Math.sign(m.bad - m.good) * changePct(m.good, count) > thresholdPct;
  });
  return bad ? 'bad' : 'good';
}

/**
 * Pure: over `n` commits (0 the oldest after good, n − 1 the bad one): { next, span }, { found }, or { among }
 * when only skipped commits are left between the last good and the first bad (the moved one is among them).
 */
export function nextStep(n, verdicts) {
  let lo = -1;
  let hi = n - 1;
  for (const [i, v] of verdicts) if (v === 'bad' && i < hi) hi = i;
  for (const [i, v] of verdicts) if (v === 'good' && i > lo && i < hi) lo = i;
  if (hi - lo === 1) return { found: hi };
  const open = [];
  for (let i = lo + 1; i < hi; i++) if (!verdicts.has(i)) open.push(i);
  if (!open.length) return { among: Array.from({ length: hi - lo }, (_, k) => lo + 1 + k) };
  // The commit nearest the middle; of two as near, the older.
  const mid = (lo + hi) / 2;
  return { next: open.reduce((best, i) => (Math.abs(i - mid) < Math.abs(best - mid) ? i : best)), span: hi - lo };
}

/** Pure: how many counts a bisection needs at most (no skips) when its last good and first bad are `span` apart. */
export const stepsLeft = (span) => (span > 1 ? Math.ceil(Math.log2(span)) : 0);
