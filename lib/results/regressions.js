// `run --threshold`: the rows of one run that are slower than its baseline by more than a threshold,
// and called so (beyond their Δ's interval, or the count's noise floor). Pure; for a CI job that runs
// a change and its base as two rows of one run (e.g. mysql2@3.24.4 and mysql2@file:.).

/**
 * [{ bench, driver, deltaPct }] of the rows whose Δ against the baseline (applyDeltas) is a
 * significant loss beyond `thresholdPct`. A row that failed its check is a failure of the run
 * already (exit 1), not a regression.
 */
export function regressionsAgainstBaseline(results, thresholdPct) {
  const found = [];
  for (const bench of results.benches ?? []) {
    for (const row of bench.results ?? []) {
      if (row.ok && row.deltaSignificant && row.deltaPct !== null && row.deltaPct < -thresholdPct) {
        found.push({ bench: bench.name, driver: row.driver, deltaPct: row.deltaPct });
      }
    }
  }
  return found;
}

/** One line per regression, naming the baseline and the threshold. */
export function describeRegressions(found, { baseline, thresholdPct, figure = 'ops/s' }) {
  return found.map((r) => `REGRESSION: ${r.bench} · ${r.driver}: ${r.deltaPct} % ${figure} against ${baseline}, beyond --threshold ${thresholdPct} %`);
}
