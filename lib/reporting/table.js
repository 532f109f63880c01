// Pure renderers: results object -> text. Nothing here measures or writes.
import Table from 'cli-table3';
import { ALLOCATION_HEAD, ALLOCATION_LEGEND, allocationTexts, describeBudgetStops, describeDriver, hasAllocation, runtimeNotes, shardNotes, describeNetwork, describeResolution, describeSignificanceRule, deltaNotes, fmtDelta } from './format.js';
import { fmtOps, fmtPct, fmtSignedPct, fmtUs } from '../common/format-numbers.js';
import { countCells, countHead, describeCount } from './count-rows.js';
import { counterOf } from '../replay/counters/index.js';
import { describePlacement } from '../common/placement.js';
import { planFor } from '../measuring/bench/plan.js';
import { describeWindowLength } from '../measuring/figures/row-figures.js';

function describeServer(server) {
  const where = !server.embedded ? 'remote'
    : server.storage ? `embedded, data ${server.storage === 'memory' ? 'in memory' : 'on disk'}` : 'embedded';
  return `${server.kind === 'mysql' ? 'MySQL' : 'MariaDB'} ${server.version} (${where})`;
}

/** What a replay run measured (timed, or counted by the run's counter), in place of the server it did not reach. */
const describeReplay = (server, replay, count) => `${count ? counterOf(count).heading : 'CLIENT COST (replay)'}: each driver answered in its own process by replies recorded from ${describeServer(server)}; no socket, no server in the figures`
  + ` · ${replay.reused ?? 0} replay set(s) reused, ${replay.captured ?? 0} captured`;

export function describeRun(results) {
  const { server, env, settings, drivers } = results;
  const serverText = settings.replay && server ? describeReplay(server, settings.replay, settings.count) : server ? describeServer(server) : 'no server';
  const driverText = drivers.map(describeDriver).join(', ');
  const levels = [].concat(settings.concurrency);
  const conns = levels.length > 1 ? `${levels.join(', ')} connections (one level after another)`
    : levels[0] === 1 ? '1 connection' : `${levels[0]} connections`;
  const windows = settings.lead !== undefined
    ? `${settings.rounds} rounds${settings.roundsScale > 1 ? ` (${settings.roundsScale} × the default, for a run of few benches and drivers)` : ''} × ${describeWindowLength(settings)} per driver and bench`
      + (settings.processes > 1 ? ` · ${settings.processes} processes per driver, taking the rounds in turn` : '')
      + (settings.workers > 1 ? ` · each window in ${settings.workers} worker processes at once` : '')
    : `${settings.rounds > 1 ? `${settings.rounds} rounds × ` : ''}${settings.time} s sampling per cell`;
  const counted = settings.count ? `${counterOf(settings.count).noun} ${counterOf(settings.count).countedWith(settings.count)}` : null;
  const wake = settings.wake && !counted ? ` · wake ${settings.wake}` : '';
  const jit = settings.jit === 'wait' ? ' · jit wait' : '';
  const placement = settings.placement ? ` · ${describePlacement(settings.placement)}` : '';
  const net = settings.network?.rttMs > 0 ? ` · network ${describeNetwork(settings.network)}` : '';
  const unfair = drivers.filter((d) => d.overridesFairness?.length);
  const rated = settings.rate ? ` · open schedule at ${settings.rate.rates.map((r) => (r.perSec !== undefined ? `${r.perSec} ops/s` : `${r.pctOfMax} %`)).join(', ')} (${settings.rate.schedule})` : '';
  return [
    `${serverText} · Node ${env.node} · ${env.cpus} × ${env.cpuModel}${placement}${wake}${jit}${net}`,
    `drivers: ${driverText} · baseline ${settings.baseline} · ${conns} per driver · ${counted ?? windows}${rated}`,
    ...unfair.map((d) => `(!) NOT COMPARABLE: ${d.name} overrides the fairness rules (${d.overridesFairness.join(', ')}), set alike for every other driver`),
  ];
}

/** A replay run's cost columns: client CPU µs/op and its paired Δ, GC ms per 1,000 ops and its Δ of totals. */
function replayCostCells(row) {
  if (!row.ok || !row.cost) return ['', '', '', ''];
  const d = row.costDelta;
  const cpuDelta = !d || d.cpuPct === null ? '' : `${d.cpuCI && d.cpuCI[0] <= 0 && d.cpuCI[1] >= 0 ? '~ ' : ''}${fmtSignedPct(d.cpuPct)}`;
  const gc = Number.isFinite(row.cost.gcMsPer1000Ops) ? row.cost.gcMsPer1000Ops.toFixed(2) : '-';
  return [fmtUs(row.cost.clientCpuUsPerOp), cpuDelta, gc, !d || d.gcPct === null ? '' : fmtSignedPct(d.gcPct)];
}

/** Cost per operation: the driver process's CPU (all threads) and GC pauses, the embedded server's CPU. */
function costCells(row) {
  const c = row.ok ? row.cost : null;
  if (!c) return ['', '', ''];
  return [fmtUs(c.clientCpuUsPerOp), Number.isFinite(c.gcMsPer1000Ops) ? c.gcMsPer1000Ops.toFixed(2) : '-', fmtUs(c.serverCpuUsPerOp)];
}

function opsCell(row) {
  if (row.ok) return fmtOps(row.opsPerSec);
  return row.status === 'n/a' ? 'n/a' : 'FAILED';
}

/** --count: the counter's figure per operation per row, with its Δ (+: more work than the reference). */
function renderCountTable(results, { color }) {
  const { baseline, count } = results.settings;
  const table = new Table({
    head: ['bench', 'driver', 'protocol', ...countHead(count), `Δ vs ${baseline}`],
    colAligns: ['left', 'left', 'left', ...countHead(count).map(() => 'right'), 'right'],
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  const notes = [describeCount(count)];
  for (const bench of results.benches) {
    bench.results.forEach((row, i) => {
      table.push([i === 0 ? bench.name : '', row.driver, row.protocol ?? '', ...countCells(row, bench, baseline, count)]);
      if (!row.ok) notes.push(`${bench.name} · ${row.driver}: ${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error}`);
    });
    if (bench.deltaNote) notes.push(`${bench.name}: ${bench.deltaNote}`);
    if (bench.note) notes.push(`${bench.name}: ${bench.note}`);
  }
  const lines = [...describeRun(results), table.toString(), notes.map((n) => `  ${n}`).join('\n')];
  if (!results.complete) lines.push(`INCOMPLETE: ${results.stoppedBy ?? 'the run did not finish'}`);
  return lines.join('\n') + '\n';
}

/** Pure: one timed row's cells in the main table, in the order of its head. */
function timedCells(row, i, bench, { multiLevel, unfair, wide, replay, withFloor, baseline, allocationCells }) {
  return [
    i === 0 ? (multiLevel && bench.concurrency !== undefined ? `${bench.name} @${bench.concurrency}` : bench.name) : '',
    unfair.has(row.driver) ? `${row.driver} (!)` : row.driver,
    row.protocol ?? '',
    opsCell(row),
    row.ok ? fmtPct(row.rme) : '',
    row.ok ? String(row.samples) : '',
    row.ok ? fmtUs(row.latency?.p50) : '',
    ...(wide ? [row.ok ? fmtUs(row.latency?.p90) : ''] : []),
    row.ok ? fmtUs(row.latency?.p99) : '',
    ...(wide ? [row.ok ? fmtUs(row.latency?.max) : '', row.ok && row.rounds?.length > 1 ? fmtPct(row.spreadPct) : '', ...(replay ? [] : costCells(row))] : []),
    ...allocationCells(row),
    fmtDelta(row, bench, baseline),
    ...(replay ? replayCostCells(row) : []),
    ...(withFloor ? [row.overFloorPct === null || row.overFloorPct === undefined ? (row.driver === 'floor' && row.ok ? 'floor' : '') : fmtSignedPct(row.overFloorPct, 0)] : []),
  ];
}

/** The main table, one row per bench x driver, followed by notes on failures and n/a rows. */
export function renderTable(results, { color = false, latency = false } = {}) {
  if (results.settings.count) return renderCountTable(results, { color });
  const baseline = results.settings.baseline;
  const wide = latency;
  const withFloor = results.benches.some((b) => b.results.some((r) => r.driver === 'floor' && r.ok));
  const replay = Boolean(results.settings.replay);
  // Bytes allocated per operation fit the default table (one narrow column); its writes and reads
  // per operation join the wide one's cost columns.
  const allocated = hasAllocation(results);
  const allocationCells = (row) => (!allocated ? [] : wide ? allocationTexts(row) : allocationTexts(row).slice(0, 1));
  const head = ['bench', 'driver', 'protocol', 'ops/s', '± rme', 'samples',
    'p50 µs', ...(wide ? ['p90 µs'] : []), 'p99 µs',
    ...(wide ? ['max µs', 'IQR', ...(replay ? [] : ['cpu µs/op', 'gc ms/1k', 'server µs/op'])] : []),
    ...(!allocated ? [] : wide ? ALLOCATION_HEAD : ALLOCATION_HEAD.slice(0, 1)), `Δ vs ${baseline}`,
    ...(replay ? ['cpu µs/op', 'Δ cpu', 'gc ms/1k', 'Δ gc'] : []),
    ...(withFloor ? ['over floor'] : [])];
  const table = new Table({
    head,
    colAligns: ['left', 'left', 'left', ...head.slice(3).map(() => 'right')],
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  const notes = [];
  const multiLevel = [].concat(results.settings.concurrency ?? 1).length > 1;
  const unfair = new Set((results.drivers ?? []).filter((d) => d.overridesFairness?.length).map((d) => d.name));
  // A --rate pass's entries have their own tables (rate-tables.js): here, the closed-loop ones.
  const closedLoop = results.benches.filter((b) => !b.rate);
  for (const bench of closedLoop) {
    bench.results.forEach((row, i) => {
      table.push(timedCells(row, i, bench, { multiLevel, unfair, wide, replay, withFloor, baseline, allocationCells }));
      if (!row.ok) notes.push(`${bench.name} · ${row.driver}: ${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error}`);
      notes.push(...deltaNotes(bench, row));
    });
    if (bench.deltaNote) notes.push(`${bench.name}: ${bench.deltaNote}`);
    if (bench.note) notes.push(`${bench.name}: ${bench.note}`);
  }
  const lines = [...describeRun(results), ...(closedLoop.length || !results.benches.length ? [table.toString()] : [])];
  if (closedLoop.some((b) => b.results.some((r) => r.deltaSignificant === false))) {
    notes.unshift(describeSignificanceRule(results.resolution));
  }
  const stops = describeBudgetStops(results.benches);
  if (stops) notes.push(stops);
  if (results.resolution) notes.push(`resolution: this run resolves ${describeResolution(results.resolution)}`);
  if (allocated) notes.push(wide ? ALLOCATION_LEGEND.join('; ') : ALLOCATION_LEGEND[0]);
  notes.push(...runtimeNotes(results.drivers), ...shardNotes(results));
  if (notes.length) lines.push(notes.map((n) => `  ${n}`).join('\n'));
  if (!results.complete) lines.push(`INCOMPLETE: ${results.stoppedBy ?? 'the run did not finish'}`);
  const extra = renderBenchTables(results, { color });
  return lines.join('\n') + '\n' + extra;
}

/**
 * Pure: the tables a bench adds beside the main one (results' `benches[].tables`: { title, head,
 * rows, notes }); '' when there are none.
 */
export function renderBenchTables(results, { color = false } = {}) {
  const out = [];
  for (const bench of results.benches ?? []) {
    for (const t of bench.tables ?? []) {
      const table = new Table({ head: t.head, style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true } });
      for (const row of t.rows ?? []) table.push(row.map((c) => String(c ?? '')));
      const level = bench.concurrency !== undefined && [].concat(results.settings?.concurrency ?? 1).length > 1 ? ` @${bench.concurrency}` : '';
      out.push(`${bench.name}${level} · ${t.title}\n${table.toString()}\n${(t.notes ?? []).map((n) => `  ${n}\n`).join('')}`);
    }
  }
  return out.join('');
}

export const RATE_MARK = '(rate)';
export const NAMED_ONLY_MARK = '(when named)';

/** `list`: each bench with its SQL and, per driver, the protocol path it runs; benches outside the default run marked. */
export function renderBenchList(benches, drivers, context) {
  const nameWidth = Math.max(18, ...benches.map((b) => b.name.length + 2), NAMED_ONLY_MARK.length + 2);
  const table = new Table({ head: ['bench', 'what it measures', 'SQL', ...drivers.map((d) => d.name)], wordWrap: true, style: { head: [], border: [] }, colWidths: [nameWidth, 40, 34, ...drivers.map(() => 16)] });
  for (const b of benches) {
    const marks = [b.inDefaultRun === false ? NAMED_ONLY_MARK : null, b.openSchedule ? RATE_MARK : null].filter(Boolean);
    table.push([[b.name, ...marks].join('\n'), b.title, b.sql, ...drivers.map((d) => {
      const plan = planFor(b, d, context);
      return plan.unsupported || plan.unavailable ? 'n/a' : plan.protocol;
    })]);
  }
  const named = benches.filter((b) => b.inDefaultRun === false).map((b) => b.name);
  const footer = (named.length
    ? `${NAMED_ONLY_MARK}: not in the default run (which stays under four minutes); run when named, e.g. mysql-driver-bench ${named.join(' ')}\n`
    : '') + (benches.some((b) => b.openSchedule) ? `${RATE_MARK}: takes --rate (operations started on an open schedule; docs/rate.md)\n` : '');
  return table.toString() + '\n' + footer;
}
