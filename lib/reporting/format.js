// Pure descriptions of a run's figures for the renderers: Δ cells, interval levels, resolution,
// network, budget stops and a Δ's notes (the plain number formatters: common/format-numbers.js).
import { fmtLevel, fmtPct, fmtSignedPct } from '../common/format-numbers.js';

/** Were a run's Δ intervals (results.resolution) taken to hold together, each above 95 %? */
export const jointIntervals = (res) => Boolean(res?.eachLevel) && (res.comparisons ?? 1) > 1;

export function describeIntervalLevel(res) {
  if (!jointIntervals(res)) return '95 %';
  return `95 % together over the run's ${res.comparisons} Δs: each at ${fmtLevel(res.eachLevel)}`;
}

/** What a run resolves (results.resolution), as one sentence without a leading label. */
export function describeResolution(res) {
  if (res?.pct === undefined) return 'not measured';
  return `differences above ${fmtPct(res.pct)} (the median half-width of its paired Δs' intervals, `
    + `${describeIntervalLevel(res)}; ${res.rows} row${res.rows === 1 ? '' : 's'}; widest ±${fmtPct(res.largestPct)})`;
}

/** Where the method behind `~` is explained (the docs ship with the package). */
export const SIGNIFICANCE_METHOD = 'docs/measuring.md#how-to-read-the-numbers';

export function describeSignificanceRule(res) {
  if (res?.pct === undefined) return `~ : not significant: too few rounds for an interval of the paired Δ; method: ${SIGNIFICANCE_METHOD}`;
  return `~ : not significant: the paired Δ's interval includes 0, or |Δ| ≤ the resolution (${fmtPct(res.pct)}); method: ${SIGNIFICANCE_METHOD}`;
}

/** The larger distance from Δ to its interval's bounds (the ± shown beside a Δ). */
export const deltaMargin = (row) => (row.deltaCI
  ? Math.max(Math.abs(row.deltaCI[1] - row.deltaPct), Math.abs(row.deltaPct - row.deltaCI[0])) : null);

/** A row's Δ cell (`digits`: 2 for instruction counts, whose ± is hundredths). */
export function fmtDelta(row, bench, baseline, { digits = 1 } = {}) {
  if (!row.ok) return '';
  const reference = bench?.deltaReference ?? baseline;
  if (row.driver === reference) return reference === baseline ? 'baseline' : 'reference';
  if (!Number.isFinite(row.deltaPct)) return '-';
  const margin = deltaMargin(row);
  const text = `${fmtSignedPct(row.deltaPct, digits)}${margin === null ? '' : ` ±${margin.toFixed(digits)}`}`;
  return row.deltaSignificant ? text : `~ ${text}`;
}

const fmtMs = (ms) => (ms === null || ms === undefined ? '-' : `${ms} ms`);

/** The run's network (settings.network) in a phrase: what was asked, what a client saw added, and what the proxy held. */
export function describeNetwork(network) {
  if (!network) return 'not recorded';
  if (typeof network.rttMs !== 'number') return JSON.stringify(network);
  if (network.rttMs === 0) return 'loopback';
  const asked = `+${network.rttMs} ms RTT`;
  const c = network.calibration;
  // What the hold was tuned on: the probe's mean added time, or (older results) its median.
  const seen = (o) => (c?.calibratedOn === 'mean' && o.addedMeanMs !== undefined ? `+${o.addedMeanMs} ms on average` : `+${o.addedMs} ms`);
  if (network.via === 'process') {
    const after = c?.after?.addedMs !== undefined ? `, ${seen(c.after)} after` : '';
    return c?.calibrated ? `${asked} (held in the driver processes: a client saw ${seen(c.observed)} before the run${after})`
      : `${asked} (held in the driver processes, not tuned: ${network.holdMs} ms each way plus the path's own cost)`;
  }
  if (c?.calibrated) {
    const after = c.after?.addedMs !== undefined ? `, ${seen(c.after)} after` : '';
    return `${asked} (a client saw ${seen(c.observed)} before the run${after}; the proxy held p50 ${fmtMs(network.addedRttP50Ms)}, p99 ${fmtMs(network.addedRttP99Ms)})`;
  }
  if (c) return `${asked} (not tuned: the proxy held p50 ${fmtMs(network.addedRttP50Ms)}, p99 ${fmtMs(network.addedRttP99Ms)}, plus its own path cost)`;
  // Results from before the proxy was tuned from the client's side: its holds were at least the RTT.
  if ('addedRttP50Ms' in network) return `${asked} (added over the run: p50 ${fmtMs(network.addedRttP50Ms)}, p99 ${fmtMs(network.addedRttP99Ms)})`;
  if ('measuredAddedMs' in network) return `${asked} (measured +${network.measuredAddedMs} ms before the run)`; // results of older releases
  return asked;
}

export function describeBudgetStop(bench) {
  const b = bench.budgetStop;
  return b ? `${b.rounds} of ${b.of} rounds: the bench's time budget (${b.budgetS} s per driver) ran out` : null;
}

export function describeBudgetStops(benches) {
  const stopped = benches.filter((b) => b.budgetStop);
  if (stopped.length === 0) return null;
  const { of, budgetS } = stopped[0].budgetStop;
  if (stopped.every((b) => b.budgetStop.budgetS === budgetS)) {
    return `rounds: the time budget (${budgetS} s per driver and bench) ended ${stopped.map((b) => `${b.name} after ${b.budgetStop.rounds}`).join(', ')} of ${of}`;
  }
  // A paced run (pace.js): each bench had its own share of the run's time.
  return `rounds: the time budget (s per driver) ended ${stopped.map((b) => `${b.name} after ${b.budgetStop.rounds} (${b.budgetStop.budgetS} s)`).join(', ')} of ${of}`;
}

// A Δ whose two rows' processes differ among themselves by this much (the standard deviation the
// draw of processes gives it, deltaProcessSdPct) gets a note saying why its interval is wide.
export const PROCESS_SPREAD_NOTE_PCT = 5;

export function processSpreadNote(bench, row) {
  if (!(row.deltaProcessSdPct >= PROCESS_SPREAD_NOTE_PCT) || !bench.deltaReference) return null;
  return `${bench.name} · ${row.driver}: the processes of ${row.driver} or ${bench.deltaReference} differ among themselves `
    + `(±${fmtPct(row.deltaProcessSdPct)} on this Δ from their draw alone, in its interval): `
    + 'a new run draws new processes';
}

export function driftNote(bench, row) {
  if (!row.deltaDrift?.moved || !bench.deltaReference) return null;
  const { firstPct, secondPct } = row.deltaDrift;
  return `${bench.name} · ${row.driver}: Δ moved from ${fmtSignedPct(firstPct)} in the first half of the rounds to `
    + `${fmtSignedPct(secondPct)} in the second: ${row.driver} or ${bench.deltaReference} changed speed during the bench `
    + '(still warming up, or slowing down as it went on), and the Δ mixes the two';
}

export const deltaNotes = (bench, row) => [processSpreadNote(bench, row), driftNote(bench, row)].filter(Boolean);

/** A driver as the header lists it: `mysql 2.18.1 (via promise-mysql@5.2.0)`, `mysql2~bun 3.24.5 on bun 1.4.5`. */
export const describeDriver = (d) => `${d.name} ${d.version}${d.via ? ` (via ${d.via})` : ''}${d.runtime && !d.runtime.harness ? ` on ${d.runtime.kind} ${d.runtime.version}` : ''}`;

export const runtimeNotes = (drivers = []) => drivers.filter((d) => d.runtime?.lacks?.length)
  .map((d) => `${d.name}: n/a on ${d.runtime.kind} ${d.runtime.version}: ${d.runtime.lacks.join('; ')}`);

/** A merged run's notes: which machine measured which cells (each Δ paired against its own shard's reference row). */
export const shardNotes = (results) => (results.shards ?? []).map((s) => `shard ${s.index}/${results.shards.length} on ${s.host ?? 'an unnamed host'}`
  + `${s.resolutionPct !== null && s.resolutionPct !== undefined ? ` (resolution ${s.resolutionPct} %)` : ''} measured ${s.cells.join(', ')}`);

export function fmtKB(bytes) {
  if (!Number.isFinite(bytes)) return '-';
  const kb = bytes / 1024;
  if (Math.abs(kb) >= 100) return Math.round(kb).toLocaleString('en-US');
  return kb.toFixed(Math.abs(kb) >= 10 ? 1 : 2);
}

export const fmtPerOp = (n) => (Number.isFinite(n) ? n.toFixed(2) : '-');

export const hasAllocation = (results) => (results.benches ?? []).some((b) => b.results.some((r) => r.ok && r.allocation));

export function allocationTexts(row) {
  const a = row.ok ? row.allocation : null;
  if (!a) return ['', '', ''];
  return [fmtKB(a.bytesPerOp), fmtPerOp(a.writesPerOp), fmtPerOp(a.readsPerOp)];
}

export const ALLOCATION_HEAD = ['KB/op', 'writes/op', 'reads/op'];

export const ALLOCATION_LEGEND = Object.freeze([
  'KB/op: bytes the driver process allocated on its heap per operation, in 1,024 bytes (the window loop\'s own taken out)',
  'writes/op, reads/op: its write and read system calls per operation (its socket\'s; none under --replay)',
]);
