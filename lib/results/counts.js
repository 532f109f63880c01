// A counted figure's Δ and the noise floor it is judged against (--count runs), for the run's own Δ
// column (deltas.js) and for two runs compared (compare-counts.js). Pure.

/** The noise floor of a bench's count in a run's settings.count (the bench's own where it has one), in %. */
export const countFloorPct = (count, bench) => count?.benchFloorsPct?.[bench] ?? count?.noiseFloorPct ?? 0;

/** `row` ÷ `ref` − 1, in % (+ is more work, as a maintainer reads "more instructions"); null unless both counted. */
export const countDeltaPct = (ref, row) => (ref > 0 && row > 0 ? Math.round((row / ref - 1) * 1e5) / 1e3 : null);

// The first results schema whose counted rows carry countDeltaPct's Δ; before it, deltaPct was the
// reference's count ÷ the row's − 1 (+ was less work, the sign of ops/s).
export const COUNT_DELTA_SCHEMA = 4;

/** Schema 1 and 2's instructionsPerOp and instructions read as today's `count`; changes and returns `results`. */
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

/** Older Δs read as today's, and the results marked as of COUNT_DELTA_SCHEMA so a file written from them is not turned again. */
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
