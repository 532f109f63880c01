// Pure: results or comparison -> Markdown (a pull-request comment, $GITHUB_STEP_SUMMARY).
import { ALLOCATION_HEAD, ALLOCATION_LEGEND, allocationTexts, describeBudgetStop, describeDriver, hasAllocation, runtimeNotes, shardNotes, describeNetwork, describeResolution, describeSignificanceRule, deltaNotes, fmtDelta } from './format.js';
import { fmtOps, fmtPct, fmtSignedPct, fmtUs } from '../common/format-numbers.js';
import { countCells, countHead, describeCount } from './count-rows.js';
import { counterOf } from '../replay/counters/index.js';
import { describePlacement } from '../common/placement.js';
import { describeSetting } from '../results/compare-warnings.js';
import { listRegressions, fmtGeomeanChanges, fmtJudged, fmtVsAnchor, judgedHeader, rowNote } from './compare-text.js';
import { forestMarkdown } from './forest.js';
import { renderHistoryMarkdown } from './history.js';
import { verdictMarkdown } from './verdict-text.js';

const serverText = (server) => (server
  ? `${server.kind === 'mysql' ? 'MySQL' : 'MariaDB'} ${server.version}${server.embedded === undefined ? '' : server.embedded ? ' (embedded)' : ' (remote)'}`
  : 'not recorded');

const driverText = describeDriver;

/** The run's conditions as [label, value] pairs, shared by the Markdown and HTML renderers. */
export function environmentFacts(r) {
  const s = r.settings ?? {};
  const e = r.env ?? {};
  const facts = [
    ['started', r.startedAt ?? 'not recorded'],
    ['server', serverText(r.server)],
  ];
  if (r.server && (r.server.blackhole !== undefined || r.server.bulk !== undefined)) {
    facts.push(['server features', `BLACKHOLE ${r.server.blackhole ? 'yes' : 'no'} · bulk ${r.server.bulk ? 'yes' : 'no'}`]);
  }
  facts.push(
    ['Node.js', e.node ?? 'not recorded'],
    ['machine', `${e.cpus ?? '?'} × ${e.cpuModel ?? '?'}${e.platform ? ` · ${e.platform}${e.arch ? `/${e.arch}` : ''}` : ''}${e.memoryGiB ? ` · ${e.memoryGiB} GiB` : ''}`],
    ['drivers', (r.drivers ?? []).map(driverText).join(', ') || 'not recorded'],
  );
  const settings = [];
  if (s.mode) settings.push(`mode ${s.mode}`);
  if (s.baseline) settings.push(`baseline ${s.baseline}`);
  if (s.concurrency !== undefined) settings.push(`${s.concurrency} connection${s.concurrency === 1 ? '' : 's'} per driver`);
  if (s.time !== undefined) settings.push(`${s.time} s measured per bench and driver`);
  if (s.rounds !== undefined) settings.push(`${s.rounds} round${s.rounds === 1 ? '' : 's'}`);
  if (s.lead !== undefined) settings.push(`${s.lead} s lead-in per window`);
  if (s.warmup !== undefined) settings.push(`${s.warmup} s warm-up`);
  if (s.placement !== undefined) settings.push(describePlacement(s.placement));
  if (s.wake !== undefined) settings.push(`wake ${describeSetting(s.wake)}`);
  if (s.jit !== undefined) settings.push(`jit ${s.jit}`);
  if (s.network !== undefined) settings.push(`network ${describeNetwork(s.network)}`);
  if (settings.length) facts.push(['settings', settings.join(' · ')]);
  if (r.complete === false) facts.push(['INCOMPLETE', r.stoppedBy ?? 'the run did not finish']);
  return facts;
}

/** A table cell: no pipes, no line breaks, no HTML. */
export function mdCell(value) {
  return String(value ?? '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

function mdTable(head, rows, align) {
  const line = (cells) => `| ${cells.map(mdCell).join(' | ')} |`;
  const sep = `| ${head.map((_, i) => (align[i] === 'right' ? '---:' : '---')).join(' | ')} |`;
  return [line(head), sep, ...rows.map(line)].join('\n');
}

export const COST_HEAD = ['cpu µs/op', 'gc ms/1k', 'server µs/op'];

/** A row's cost per operation as texts (empty where not measured). */
export function costTexts(row) {
  const c = row.ok ? row.cost : null;
  if (!c) return ['', '', ''];
  return [fmtUs(c.clientCpuUsPerOp), Number.isFinite(c.gcMsPer1000Ops) ? c.gcMsPer1000Ops.toFixed(2) : '-', fmtUs(c.serverCpuUsPerOp)];
}

export const statusText = (row) => (row.ok ? fmtOps(row.opsPerSec) : row.status === 'n/a' ? 'n/a' : 'FAILED');

/** Rows of a bench in the order the run names its drivers (they are stored in measuring order). */
export function orderedRows(results, bench) {
  const order = (results.drivers ?? []).map((d) => d.name);
  const rank = (name) => (order.indexOf(name) < 0 ? order.length : order.indexOf(name));
  return [...bench.results].sort((a, b) => rank(a.driver) - rank(b.driver));
}

function environmentList(r) {
  return environmentFacts(r).map(([k, v]) => `- **${k}**: ${mdCell(v)}`).join('\n');
}

/** A release history's section (its chart and steps), right after the verdict its steps make: [] when the rows are not one. */
function historyMarkdown(results) {
  const history = renderHistoryMarkdown(results);
  return history ? [history] : [];
}

/** A row that failed or was n/a, as a note under the table. */
const failedNote = (bench, row) => `${bench.name} · ${row.driver}: ${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error ?? ''}`;

/**
 * A run's page: its heading (`what`), verdict, release history and forest plot, its `table` and
 * `notes`, then the lines `after` and the environment.
 */
function runPage(results, { what, table, notes, after }) {
  const out = [
    `### mysql-driver-bench ${what}${results.complete === false ? ' (INCOMPLETE)' : ''}`,
    '',
    ...verdictMarkdown(results, mdCell),
    ...historyMarkdown(results),
    ...forestMarkdown(results),
    table,
    '',
  ];
  if (notes.length) out.push(notes.map((n) => `- ${mdCell(n)}`).join('\n'), '');
  out.push(...after, '<details><summary>Environment</summary>', '', environmentList(results), '', '</details>', '');
  return out.join('\n');
}

/** A --count run as Markdown: the counter's figure per operation per row, with its Δ. */
function renderCountMarkdown(results) {
  const baseline = results.settings.baseline;
  const rows = [];
  const notes = [];
  for (const bench of results.benches) {
    bench.results.forEach((row, i) => {
      rows.push([i === 0 ? bench.name : '', row.driver, row.protocol ?? '', ...countCells(row, bench, baseline, results.settings.count)]);
      if (!row.ok) notes.push(failedNote(bench, row));
    });
    if (bench.deltaNote) notes.push(`${bench.name}: ${bench.deltaNote}`);
  }
  return runPage(results, {
    what: counterOf(results.settings.count).counts,
    table: mdTable(['bench', 'driver', 'protocol', ...countHead(results.settings.count), `Δ vs ${baseline}`], rows, ['left', 'left', 'left', 'right', 'right', 'right', 'right']),
    notes,
    after: [`${describeCount(results.settings.count)}.`, ''],
  });
}

export function renderResultsMarkdown(results) {
  if (results.settings?.count) return renderCountMarkdown(results);
  const baseline = results.settings?.baseline;
  const rows = [];
  const notes = [];
  const allocated = hasAllocation(results);
  for (const bench of results.benches) {
    orderedRows(results, bench).forEach((row, i) => {
      rows.push([
        i === 0 ? bench.name : '',
        row.driver,
        row.protocol ?? '',
        statusText(row),
        row.ok ? fmtPct(row.rme) : '',
        row.ok ? String(row.samples ?? '') : '',
        row.ok ? fmtUs(row.latency?.p50) : '',
        row.ok ? fmtUs(row.latency?.p99) : '',
        ...costTexts(row),
        ...(allocated ? allocationTexts(row) : []),
        fmtDelta(row, bench, baseline),
      ]);
      if (!row.ok) notes.push(failedNote(bench, row));
      notes.push(...deltaNotes(bench, row));
    });
    if (bench.deltaNote) notes.push(`${bench.name}: ${bench.deltaNote}`);
    if (bench.budgetStop) notes.push(`${bench.name}: ${describeBudgetStop(bench)}`);
    if (bench.note) notes.push(`${bench.name}: ${bench.note}`);
  }
  notes.push(...runtimeNotes(results.drivers), ...shardNotes(results));
  const after = [];
  // A bench's own tables, after the main table.
  for (const bench of results.benches) {
    for (const t of bench.tables ?? []) {
      after.push(`#### ${mdCell(bench.name)} · ${mdCell(t.title)}`, '', mdTable(t.head, t.rows ?? [], t.head.map(() => 'left')), '');
      if (t.notes?.length) after.push(t.notes.map((n) => `- ${mdCell(n)}`).join('\n'), '');
    }
  }
  const anySig = results.benches.some((b) => b.results.some((r) => r.deltaSignificant !== undefined && r.deltaSignificant !== null));
  after.push(`ops/s over all of a driver's connections; ± rme: relative margin of error at 95 % over the windows; `
    + `cpu µs/op: the driver process's CPU time (all threads) per operation; gc ms/1k: its GC pauses per 1 000 operations; `
    + `server µs/op: the embedded server's CPU time per operation${allocated ? `; ${ALLOCATION_LEGEND.join('; ')}` : ''}${anySig ? `; ${describeSignificanceRule(results.resolution)}` : ''}.`, '');
  if (results.resolution) after.push(`Resolution: this run resolves ${describeResolution(results.resolution)}.`, '');
  return runPage(results, {
    what: 'results',
    table: mdTable(['bench', 'driver', 'protocol', 'ops/s', '± rme', 'samples', 'p50 µs', 'p99 µs', ...COST_HEAD, ...(allocated ? ALLOCATION_HEAD : []), `Δ vs ${baseline}`],
      rows, ['left', 'left', 'left', ...Array(allocated ? 12 : 9).fill('right')]),
    notes,
    after,
  });
}

export function renderComparisonMarkdown(c) {
  const out = ['### mysql-driver-bench comparison', ''];
  for (const w of c.warnings) out.push(`> **warning**: ${mdCell(w)}`, '');
  if (c.threshold !== null) {
    out.push(c.regressions.length
      ? `**Regression** (threshold ${c.threshold} %): ${mdCell(listRegressions(c))}`
      : `No significant regression larger than ${c.threshold} %.`, '');
  }
  for (const d of c.driverChanges) out.push(`- ${mdCell(d.driver)}: ${mdCell(d.base)} → ${mdCell(d.new)}`);
  if (c.driverChanges.length) out.push('');
  const rows = [];
  let last = null;
  for (const r of c.rows) {
    rows.push([r.bench === last ? '' : r.bench, r.driver, fmtOps(r.base.opsPerSec), fmtOps(r.new.opsPerSec), fmtSignedPct(r.opsDeltaPct), fmtVsAnchor(r), fmtJudged(r), rowNote(r, c)]);
    last = r.bench;
  }
  c.geomean.forEach((g, i) => rows.push([i === 0 ? '**geomean**' : '', g.driver, fmtOps(g.base), fmtOps(g.new), fmtSignedPct(g.opsDeltaPct), '', g.anchor ? 'anchor' : fmtSignedPct(g.deltaPct), fmtGeomeanChanges(g)]));
  out.push(mdTable(['bench', 'driver', 'base ops/s', 'new ops/s', 'ops/s Δ', 'base → new', judgedHeader(c), 'note'], rows,
    ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'left']), '');
  out.push(`${mdCell(c.rule)}. ops/s Δ: each row's own change, which carries the host's speed (shown, never judged). Geomean: geometric mean over the benches compared for the driver.`, '');
  const lists = [];
  for (const n of c.notCompared) lists.push(`- not compared: ${mdCell(`${n.bench} · ${n.driver}: ${n.base} in base, ${n.new} in new${n.error ? ` (${n.error})` : ''}`)}`);
  if (c.onlyInBase.length) lists.push(`- only in base: ${mdCell(c.onlyInBase.map((r) => `${r.bench} · ${r.driver}`).join(', '))}`);
  if (c.onlyInNew.length) lists.push(`- only in new: ${mdCell(c.onlyInNew.map((r) => `${r.bench} · ${r.driver}`).join(', '))}`);
  if (lists.length) out.push(lists.join('\n'), '');
  out.push('<details><summary>Environment</summary>', '');
  for (const [side, s] of [['base', c.base], ['new', c.new]]) {
    out.push(`**${side}**${s.file ? ` (${mdCell(s.file)})` : ''}`, '', environmentList(s), '');
  }
  out.push('</details>', '');
  return out.join('\n');
}
