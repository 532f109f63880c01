// Each row's paired Δ against its bench's reference (the baseline, or the first driver that ran the
// bench), the run's resolution, and each Δ's significance under the one rule (measuring/figures/paired-delta.js).
import { round1 } from '../common/stats.js';
import { eachIntervalLevel, pairedDelta, pairedDrift, pairedResolution, pairedSignificant } from '../measuring/figures/paired-delta.js';
import { countDeltaPct, countFloorPct } from './counts.js';

/** The baseline's row when it was measured, else the first in --drivers order that was: { row, note }. */
export function deltaReference(bench, baseline, driverOrder) {
  const measured = (name) => bench.results.find((r) => r.driver === name && r.ok);
  const base = measured(baseline);
  if (base) return { row: base, note: null };
  const row = driverOrder.map(measured).find(Boolean) ?? null;
  const baseRow = bench.results.find((r) => r.driver === baseline);
  const why = !baseRow ? `${baseline} did not run it`
    : baseRow.status === 'n/a' ? `${baseline}: ${String(baseRow.error).replace(/^not supported by driver: /, '')}` : `${baseline} failed`;
  if (!row) return { row: null, note: null };
  const others = bench.results.filter((r) => r.ok && r !== row).length;
  return { row, note: others ? `Δ against ${row.driver} (${why})` : `no Δ: only ${row.driver} was measured (${why})` };
}

/**
 * Fills the rows' Δs in place; returns the results with the run's resolution. The run's intervals hold
 * together at 95 %: each is taken at 1 - 0.05 / (the run's number of Δs).
 */
export function applyDeltas(results) {
  const baseline = results.settings.baseline;
  const driverOrder = (results.drivers ?? []).map((d) => d.name);
  const compared = [];
  for (const bench of results.benches) {
    const { row: ref, note } = deltaReference(bench, baseline, driverOrder);
    bench.deltaReference = ref?.driver ?? null;
    bench.deltaNote = note;
    const floor = bench.results.find((r) => r.driver === 'floor' && r.ok);
    for (const row of bench.results) {
      row.overFloorPct = floor && row.ok && row !== floor ? (floor.opsPerSec / row.opsPerSec - 1) * 100 : null;
      row.deltaCI = null;
      row.deltaProcessSdPct = null;
      row.deltaDrift = null;
      row.deltaSignificant = null;
      row.deltaPct = row.ok && row === ref ? 0 : null;
      if (row.ok && ref && row !== ref) compared.push([row, ref, bench]);
    }
  }
  if (results.settings.count) return applyCountDeltas(compared, results);
  const level = eachIntervalLevel(compared.length);
  const paired = [];
  for (const [row, ref, bench] of compared) {
    const d = pairedDelta(roundsOf(row, bench), roundsOf(ref, bench), level);
    row.deltaPct = d ? d.deltaPct : null;
    row.deltaCI = d?.ci ?? null;
    row.deltaProcessSdPct = d ? round1(d.processSdPct) : null;
    row.deltaPairs = d?.pairs ?? 0;
    if (d) paired.push([row, d]);
  }
  for (const [row, ref, bench] of compared) {
    row.costDelta = costDelta(row, ref, level);
    // No interval for the p99: a window's p99 rests on a handful of operations.
    if (bench.rate) row.deltaP99Pct = row.latency?.p99 > 0 && ref.latency?.p99 > 0 ? round1((ref.latency.p99 / row.latency.p99 - 1) * 100) : null;
  }
  const resolution = pairedResolution(paired.map(([, d]) => d), { level, comparisons: compared.length });
  for (const [row, d] of paired) row.deltaSignificant = pairedSignificant(d, resolution?.pct);
  for (const [row, ref, bench] of compared) row.deltaDrift = driftOf(roundsOf(row, bench), roundsOf(ref, bench), level, resolution?.pct);
  return { ...results, resolution };
}

/** At a fixed rate, the windows' p50 as a speed (1 / p50), so that + stays better. */
function roundsOf(row, bench) {
  if (!bench.rate) return row.rounds;
  return (row.rounds ?? []).map((w) => ({ ...w, opsPerSec: w.p50Us > 0 ? 1e6 / w.p50Us : 0 }));
}

/** A count's Δ (+ is more work) is called beyond the bench's noise floor, when neither row is unsteady. */
function applyCountDeltas(compared, results) {
  for (const [row, ref, bench] of compared) {
    const deltaPct = countDeltaPct(ref.count?.perOp, row.count?.perOp);
    if (deltaPct === null) continue;
    const floor = countFloorPct(results.settings.count, bench.name);
    row.deltaPct = deltaPct;
    row.deltaCI = [row.deltaPct - floor, row.deltaPct + floor];
    row.deltaSignificant = Math.abs(row.deltaPct) > floor && !row.count?.unsteady && !ref.count?.unsteady;
  }
  return { ...results, resolution: null };
}

/**
 * Client CPU µs/op paired round by round (+ is more CPU), and GC ms per 1,000 ops as a ratio of the
 * totals: most windows have no pause at all, so there is no ratio per round.
 */
export function costDelta(row, ref, level = 0.95) {
  const asRounds = (r) => (r.rounds ?? []).map((w) => ({ round: w.round, process: w.process, opsPerSec: w.cpuUsPerOp }));
  const cpu = pairedDelta(asRounds(row), asRounds(ref), level);
  const gcRow = row.cost?.gcMsPer1000Ops;
  const gcRef = ref.cost?.gcMsPer1000Ops;
  return {
    cpuPct: cpu ? round1(cpu.deltaPct) : null,
    cpuCI: cpu?.ci ? cpu.ci.map(round1) : null,
    gcPct: gcRow > 0 && gcRef > 0 ? round1((gcRow / gcRef - 1) * 100) : null,
  };
}

/** Moved: the halves' Δs differ by the U test at the run's interval level, and by more than its resolution. */
function driftOf(rowRounds, refRounds, level, resolutionPct = 0) {
  const d = pairedDrift(rowRounds, refRounds);
  if (!d) return null;
  return {
    firstPct: round1(d.firstPct),
    secondPct: round1(d.secondPct),
    p: Number(d.p.toPrecision(2)),
    moved: d.p < 1 - level && Math.abs(d.movePct) > resolutionPct,
  };
}
