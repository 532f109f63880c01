// `run --threshold` (pure): the rows of one run worse than their bench's reference by more than a
// threshold, and called so: slower in ops/s, or in a --count run more work. For a CI job that runs a
// change and its base as two rows of one run (e.g. mysql2@3.24.4 and mysql2@file:.).
import { fmtOps, fmtSignedPct } from '../common/format-numbers.js';

/**
 * `counts`: [the reference's, the row's] per operation. A row that failed its check is a failure of the
 * run already (exit 1), not a regression.
 */
export function regressionsAgainstBaseline(results, thresholdPct) {
  const counted = Boolean(results.settings?.count);
  const found = [];
  for (const bench of results.benches ?? []) {
    for (const row of bench.results ?? []) {
      if (!row.ok || !row.deltaSignificant || !Number.isFinite(row.deltaPct)) continue;
      if (counted ? row.deltaPct <= thresholdPct : row.deltaPct >= -thresholdPct) continue;
      const reference = bench.deltaReference ?? results.settings?.baseline ?? null;
      const ref = bench.results.find((r) => r.driver === reference);
      found.push({ bench: bench.name, driver: row.driver, reference, deltaPct: row.deltaPct,
        ...(counted ? { counts: [ref?.count?.perOp ?? null, row.count?.perOp ?? null] } : {}) });
    }
  }
  return found;
}

/**
 * One line per regression, naming the reference and the threshold; a count's says "more" and its two
 * counts: `REGRESSION: do · h: +1.23 % more instructions/op (99,079 → 100,302) against b, beyond --threshold 1 %`.
 */
export function describeRegressions(found, { baseline, thresholdPct, figure = 'ops/s' }) {
  return found.map((r) => {
    const against = `against ${r.reference ?? baseline}, beyond --threshold ${thresholdPct} %`;
    if (!r.counts) return `REGRESSION: ${r.bench} · ${r.driver}: ${r.deltaPct} % ${figure} ${against}`;
    const counts = r.counts.every(Number.isFinite) ? ` (${r.counts.map(fmtOps).join(' → ')})` : '';
    return `REGRESSION: ${r.bench} · ${r.driver}: ${fmtSignedPct(r.deltaPct, 2)} more ${figure}${counts} ${against}`;
  });
}
