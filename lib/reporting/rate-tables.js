// Pure: the latency-against-throughput tables of a run with --rate (measuring/run/rate-passes.js runs the
// rates): per bench, each rate asked and each driver's achieved rate, latencies from the intended
// starts, schedule lag, late and skipped operations, and whether the rate was sustained.
import Table from 'cli-table3';
import { fmtInt, fmtOps, fmtSignedPct, fmtUs } from '../common/format-numbers.js';
import { fmtDelta } from './format.js';
import { MAX_BEHIND_SHARE } from '../measuring/figures/rate-figures.js';

/** "4,000 ops/s" or "4,000 ops/s (50 % of 8,000)". */
export function describeRate(rate) {
  if (!rate?.askedPerSec) return rate?.pctOfMax ? `${rate.pctOfMax} % of the closed-loop maximum (not measured)` : 'no rate';
  const share = rate.pctOfMax ? ` (${rate.pctOfMax} % of ${fmtOps(rate.closedLoopMax)})` : '';
  return `${fmtOps(rate.askedPerSec)} ops/s${share}`;
}

/** Per bench run at a rate: { bench, entries: [{ rate, rows, reference }] }, in run order. */
export function rateData(results) {
  const byBench = new Map();
  for (const entry of results.benches ?? []) {
    if (!entry.rate) continue;
    const key = entry.concurrency === undefined ? entry.name : `${entry.name} @${entry.concurrency}`;
    if (!byBench.has(key)) byBench.set(key, []);
    byBench.get(key).push(entry);
  }
  return [...byBench].map(([bench, entries]) => ({ bench, entries }));
}

/** A row that did not keep up: one line saying so, with what it did. */
export function notSustained(bench, entry, row) {
  const { rate } = row;
  return `${bench} at ${describeRate(entry.rate)}: ${row.driver} did NOT sustain the rate: ${fmtOps(rate.achievedPerSec)} ops/s done; `
    + `of ${fmtInt(rate.scheduled)} arrivals ${fmtInt(rate.behind ?? 0)} still waited when their window's schedule ended, ${fmtInt(rate.skipped)} skipped; lag p99 ${fmtUs(row.lag?.p99)} µs`;
}

/**
 * A row's Δ p50, unless its reference did not sustain the rate: then the two p50s compare a backlog
 * with a service time, and the cell says so instead.
 */
export function rateDelta(row, entry, baseline) {
  const ref = entry.results.find((r) => r.driver === (entry.deltaReference ?? baseline));
  if (ref && ref !== row && ref.ok && ref.rate && !ref.rate.sustained) return `(${ref.driver} not sustained)`;
  return fmtDelta(row, entry, baseline);
}

const statusCell = (row) => (row.ok ? (row.rate?.sustained ? 'yes' : 'NO') : row.status === 'n/a' ? 'n/a' : 'FAILED');

/** The rate table's head, for the text and the HTML report alike. */
export const rateHead = (baseline) => ['rate asked', 'driver', 'done ops/s', 'p50 µs', 'p99 µs', 'p99.9 µs', 'lag p50', 'lag p99', 'late', 'behind', 'skipped', 'sustained', `Δ p50 vs ${baseline}`, 'Δ p99'];

/** A measured rate row's cells after the rate and the driver (rateHead's), for the text and the HTML report alike. */
export function rateFigures(row, entry, baseline, run) {
  const delta = rateDelta(row, entry, baseline);
  return [
    fmtOps(row.rate.achievedPerSec),
    fmtUs(row.latency?.p50),
    fmtUs(row.latency?.p99),
    fmtUs(row.latency?.p999),
    fmtUs(row.lag?.p50),
    fmtUs(row.lag?.p99),
    run?.latencyLimitMs ? fmtInt(row.rate.late) : '-',
    fmtInt(row.rate.behind ?? 0),
    fmtInt(row.rate.skipped),
    statusCell(row),
    delta,
    Number.isFinite(row.deltaP99Pct) && !delta.endsWith('not sustained)') ? fmtSignedPct(row.deltaP99Pct) : '',
  ];
}

/** Pure: the rate tables ('' when the run had no --rate). */
export function renderRates(results, { color = false } = {}) {
  const data = rateData(results);
  if (data.length === 0) return '';
  const { baseline, rate: run } = results.settings;
  const parts = [];
  for (const b of data) {
    const head = rateHead(baseline);
    const table = new Table({
      head,
      colAligns: ['left', 'left', ...head.slice(2).map(() => 'right')],
      style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
    });
    const notes = [];
    for (const entry of b.entries) {
      entry.results.forEach((row, i) => {
        const ok = row.ok && row.rate;
        const figures = ok ? rateFigures(row, entry, baseline, run) : [...Array(9).fill(''), statusCell(row), '', ''];
        table.push([i === 0 ? describeRate(entry.rate) : '', row.driver, ...figures]);
        if (ok && !row.rate.sustained) notes.push(notSustained(b.bench, entry, row));
        if (!row.ok) notes.push(`${b.bench} at ${describeRate(entry.rate)} · ${row.driver}: ${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error}`);
      });
    }
    const limit = run?.latencyLimitMs ? `; late: done more than ${run.latencyLimitMs} ms after its intended start; skipped: still waiting ${run.latencyLimitMs} ms after it, or` : '; late: with --latency-limit; skipped:';
    notes.push(`open schedule (${run?.schedule ?? 'poisson'} arrivals): latency from each operation's intended start; lag: its start - its intended start; `
      + `behind: arrivals still waiting when their window's schedule ended (they start after it)${limit} still waiting a window's length after it; `
      + `sustained: at most ${MAX_BEHIND_SHARE * 100} % of the arrivals skipped or behind`);
    notes.push('Δ p50: the rounds\' p50s paired (+: a lower p50 at the same rate); Δ p99: the rows\' p99s (+: lower)');
    parts.push(`rate · ${b.bench} · latency against throughput\n${table.toString()}\n${notes.map((n) => `  ${n}`).join('\n')}`);
  }
  return parts.join('\n') + '\n';
}
