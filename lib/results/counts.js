// A counted figure's Δ and the noise floor it is judged against (--count runs), for the run's own Δ
// column (deltas.js) and for two runs compared (compare-counts.js). Pure.

/** The noise floor of a bench's count in a run's settings.count (the bench's own where it has one), in %. */
export const countFloorPct = (count, bench) => count?.benchFloorsPct?.[bench] ?? count?.noiseFloorPct ?? 0;

/**
 * Δ between two counts per operation: `row` ÷ `ref` − 1, in % to three decimals (+ is more work: the
 * count's own direction, which a driver's maintainer reads as "more instructions"); null unless both
 * are counted.
 */
export const countDeltaPct = (ref, row) => (ref > 0 && row > 0 ? Math.round((row / ref - 1) * 1e5) / 1e3 : null);

// The first results schema whose counted rows carry countDeltaPct's Δ; before it, deltaPct was the
// reference's count ÷ the row's − 1 (+ was less work, the sign of ops/s).
export const COUNT_DELTA_SCHEMA = 4;

/**
 * A results file of schema 1 or 2 carries a counted row's figures as instructionsPerOp and
 * instructions: { ops, warmup, windows, spreadPct, … }; they are read as today's
 * count: { what: 'instructions', perOp, ops, … }. Changes and returns `results`.
 */
export function readCountRows(results) {
  for (const bench of results.benches ?? []) {
    for (const row of bench.results ?? []) {
      if (row.count || (row.instructionsPerOp === undefined && row.instructions === undefined)) continue;
      row.count = { what: 'instructions', perOp: row.instructionsPerOp, ...row.instructions };
      delete row.instructionsPerOp;
      delete row.instructions;
    }
  }
  return results;
}

/** Pure: an older count Δ (the reference's ÷ the row's − 1, in %) as today's (the row's ÷ the reference's − 1). */
export const flipCountDelta = (pct) => Math.round((100 / (1 + pct / 100) - 100) * 1e3) / 1e3;

/**
 * A count run's results of a schema before COUNT_DELTA_SCHEMA carry each row's Δ and its interval with
 * the sign of ops/s; they are read as today's (+ is more work), the interval keeping its width on each
 * side, the run's call (deltaSignificant) standing, and the results marked as of COUNT_DELTA_SCHEMA, so
 * that a file written from them (merge) is not turned again. Changes and returns `results`.
 */
export function readCountDeltas(results) {
  if (!results.settings?.count || !(results.schema < COUNT_DELTA_SCHEMA)) return results;
  for (const bench of results.benches ?? []) {
    for (const row of bench.results ?? []) {
      if (!Number.isFinite(row.deltaPct)) continue;
      const was = row.deltaPct;
      row.deltaPct = flipCountDelta(was);
      if (Array.isArray(row.deltaCI) && row.deltaCI.every(Number.isFinite)) {
        const [lo, hi] = row.deltaCI;
        row.deltaCI = [row.deltaPct - (hi - was), row.deltaPct + (was - lo)];
      }
    }
  }
  results.schema = COUNT_DELTA_SCHEMA;
  return results;
}
