// `calibrate --count` (pure): does a count rank drivers as time does? Per bench, each driver's ratio to the
// reference in instructions, in estimated cycles (published weights, and weights fitted to time judged on
// rows left out of their fit) and in timed replay, and each count's error against time (docs/replay.md).
import { median } from '../common/stats.js';
import { PUBLISHED_CYCLE_WEIGHTS } from '../replay/counters/cycles.js';
import { deltaReference } from './deltas.js';
import { cycleRatio, fitCycleWeights } from './cycle-weight-fit.js';

// The target for estimated cycles on rows left out of the fit: median error ≤ 5 %, largest ≤ 10 %.
export const TARGET = Object.freeze({ medianPct: 5, largestPct: 10 });
const EVENT_KEYS = ['instructions', 'dataAccesses', 'l1Misses', 'llMisses', 'branchMispredicts'];

/** A count ratio's error against time's, in %: 100 × |ln a − ln b| (symmetric: 2 × against ½ × reads the same). */
export const ratioErrorPct = (a, b) => Math.abs(Math.log(a) - Math.log(b)) * 100;

/**
 * Per bench, every driver with a counted and timed row against the bench's reference: its events and the
 * reference's per operation, its time ratio per sitting (1 + Δ/100) and their median.
 */
export function calibrationInputs(counts, sittings) {
  if (counts.settings?.count?.what !== 'cycles') throw new Error(`the count run is a ${counts.settings?.count?.what ?? 'timed'} run, not a --count cycles one`);
  const baseline = counts.settings.baseline;
  const order = (counts.drivers ?? []).map((d) => d.name);
  const rows = [];
  for (const bench of counts.benches) {
    const { row: ref } = deltaReference(bench, baseline, order);
    if (!ref) continue;
    for (const row of bench.results.filter((r) => r.ok && r !== ref)) {
      for (const r of [row, ref]) {
        const missing = EVENT_KEYS.filter((k) => typeof r.count?.events?.[k] !== 'number');
        if (missing.length) throw new Error(`${bench.name} · ${r.driver}: its count keeps no ${missing.join(', ')} (counted by an older harness: count again)`);
      }
      const timeRatios = sittings.map((s) => timedRatio(s, bench.name, row.driver, ref.driver)).filter((x) => x !== null);
      if (!timeRatios.length) continue;
      rows.push({ bench: bench.name, driver: row.driver, reference: ref.driver, events: row.count.events, referenceEvents: ref.count.events,
        timeRatios, timeRatio: median(timeRatios) });
    }
  }
  return rows;
}

function timedRatio(results, benchName, driver, reference) {
  const bench = results.benches.find((b) => b.name === benchName);
  const row = bench?.results.find((r) => r.driver === driver && r.ok);
  if (!row || bench.deltaReference !== reference || typeof row.deltaPct !== 'number') return null;
  return 1 + row.deltaPct / 100;
}

/** Pure: a row's ratio in instructions: the reference's count over the row's (cycleRatio, the same in estimated cycles). */
export const instructionRatio = (row) => row.referenceEvents.instructions / row.events.instructions;

export function errorSummary(rows, errorOf) {
  const errors = rows.map((r) => ({ row: r, pct: errorOf(r) }));
  if (!errors.length) return { medianPct: null, largestPct: null, largest: null };
  const largest = errors.reduce((a, b) => (b.pct > a.pct ? b : a));
  return { medianPct: median(errors.map((e) => e.pct)), largestPct: largest.pct, largest: { bench: largest.row.bench, driver: largest.row.driver } };
}

/** `fitted`: the weights fitted on every row, the ones to adopt; `met`: the target, on held-out rows. */
export function calibrateCounts(rows, { published = PUBLISHED_CYCLE_WEIGHTS } = {}) {
  const errorUnder = (weights) => (r) => ratioErrorPct(cycleRatio(r, weights), r.timeRatio);
  const fitted = fitCycleWeights(rows);
  // Held out by bench: weights fitted on the other benches' rows. By bench and driver: on rows of
  // neither (the strict one the target is judged on).
  const benchFits = new Map([...new Set(rows.map((r) => r.bench))].map((b) => [b, fitCycleWeights(rows.filter((r) => r.bench !== b))]));
  const strictFit = (row) => fitCycleWeights(rows.filter((r) => r.bench !== row.bench && r.driver !== row.driver));
  const out = rows.map((r) => {
    const strict = strictFit(r);
    return {
      ...r,
      instructionRatio: instructionRatio(r),
      publishedRatio: cycleRatio(r, published),
      fittedRatio: fitted ? cycleRatio(r, fitted) : null,
      heldOutRatio: strict ? cycleRatio(r, strict) : null,
      heldOutWeights: strict,
      heldOutBenchRatio: benchFits.get(r.bench) ? cycleRatio(r, benchFits.get(r.bench)) : null,
    };
  });
  const held = out.filter((r) => r.heldOutRatio !== null);
  const summaries = {
    instructions: errorSummary(out, (r) => ratioErrorPct(r.instructionRatio, r.timeRatio)),
    published: errorSummary(out, errorUnder(published)),
    fittedInSample: fitted ? errorSummary(out, errorUnder(fitted)) : errorSummary([], null),
    heldOutBench: errorSummary(out.filter((r) => r.heldOutBenchRatio !== null), (r) => ratioErrorPct(r.heldOutBenchRatio, r.timeRatio)),
    heldOut: errorSummary(held, (r) => ratioErrorPct(r.heldOutRatio, r.timeRatio)),
  };
  const h = summaries.heldOut;
  const met = h.medianPct !== null && h.medianPct <= TARGET.medianPct && h.largestPct <= TARGET.largestPct;
  return { rows: out, published: { ...published }, fitted, summaries, met };
}
