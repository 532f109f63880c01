// A counted figure's Δ and the noise floor it is judged against (--count runs), for the run's own Δ
// column (deltas.js) and for two runs compared (compare-counts.js). Pure.

/** The noise floor of a bench's count in a run's settings.count (the bench's own where it has one), in %. */
export const countFloorPct = (count, bench) => count?.benchFloorsPct?.[bench] ?? count?.noiseFloorPct ?? 0;

/**
 * Δ between two counts per operation: `ref` ÷ `row` − 1, in % to three decimals (+ is less work, the
 * sign of an ops/s change); null unless both are counted.
 */
export const countDeltaPct = (ref, row) => (ref > 0 && row > 0 ? Math.round((ref / row - 1) * 1e5) / 1e3 : null);

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
