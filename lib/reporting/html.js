// Pure: results or comparison -> one self-contained HTML page. Inline CSS and inline SVG only:
// no scripts, no fonts, no images, no external URL of any kind, so the page opens offline and
// can be attached to a CI run as is.
import { ALLOCATION_HEAD, allocationTexts, deltaNotes, describeBudgetStop, describeSignificanceRule, fmtDelta, hasAllocation } from './format.js';
import { fmtOps, fmtPct, fmtSignedPct, fmtUs } from '../common/format-numbers.js';
import { listRegressions, fmtGeomeanChanges, fmtJudged, fmtVsAnchor, judgedHeader, rowNote } from './compare-text.js';
import { COST_HEAD, costTexts, environmentFacts, orderedRows, statusText } from './markdown.js';
import { countCells, countHead, describeCount } from './count-rows.js';
import { counterOf } from '../replay/counters/index.js';
import { barChart, driverColours, esc, oneColour } from './svg.js';
import { forestSvg } from './forest.js';
import { describeRate, notSustained, rateData, rateFigures, rateHead } from './rate-tables.js';
import { rateChartSvg } from './rate-chart.js';
import { renderHistoryHtml } from './history.js';
import { share, signed } from './profile-text.js';
import { verdictHtml } from './verdict-text.js';

const BASE_COLOUR = '#b8b8b8';

const CSS = `
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1a1a1a; margin: 24px auto; max-width: 1000px; padding: 0 16px; background: #fff; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 2px; border-top: 1px solid #ddd; padding-top: 18px; }
p.sub, p.sql { margin: 2px 0 8px; color: #444; }
code { font: 13px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; padding: 1px 4px; border-radius: 3px; }
table { border-collapse: collapse; margin: 8px 0 4px; font-size: 14px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }
th { background: #f6f6f6; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0; font-size: 14px; }
dl.env dt { font-weight: 600; color: #333; }
dl.env dd { margin: 0; }
.warn { background: #fff4d6; border-left: 4px solid #e0a400; padding: 6px 10px; margin: 6px 0; }
.bad { background: #fde2e1; border-left: 4px solid #c62828; padding: 6px 10px; margin: 6px 0; }
.good { background: #e3f4e6; border-left: 4px solid #2e7d32; padding: 6px 10px; margin: 6px 0; }
.failed { color: #b71c1c; font-weight: 600; }
.na { color: #666; }
ul.notes { font-size: 14px; color: #333; }
svg.chart, svg.forest { display: block; max-width: 100%; height: auto; margin: 6px 0; }
svg.chart text, svg.forest text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
section.verdict { background: #f4f7fb; border-left: 4px solid #3b6ea8; padding: 4px 14px 2px; margin: 12px 0 8px; }
section.verdict h2 { border-top: 0; margin: 8px 0 0; padding-top: 0; }
section.verdict ul { margin: 6px 0 10px; padding-left: 20px; }
section.verdict li { margin: 3px 0; }
footer { margin-top: 32px; font-size: 13px; color: #666; }
`;

function page(title, body) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
<footer>Made by mysql-driver-bench. This page is self-contained: it loads nothing from anywhere.</footer>
</body>
</html>
`;
}

function environmentBlock(r) {
  return `<dl class="env">${environmentFacts(r).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

/** Pure: a bar's group for one driver's row: its label, and its bar (count, or ops/s with its margin) or its message. */
function barGroup(row, bench, { reference, baseline, counted, colour }) {
  const isBase = row.driver === reference;
  const label = row.driver;
  const sublabel = isBase ? `${row.protocol ?? ''} · ${reference === baseline ? 'baseline' : 'reference'}` : (row.protocol ?? '');
  if (!row.ok) {
    return { label, sublabel, bars: [], message: `${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error ?? ''}`.slice(0, 90), messageClass: row.status === 'n/a' ? 'na' : 'failed' };
  }
  if (counted) {
    const d = fmtDelta(row, bench, baseline, { digits: 2 });
    return { label, sublabel, bars: [{ value: row.count.perOp, err: 0, colour: colour(row.driver), bold: isBase, text: `${fmtOps(row.count.perOp)}${d && d !== '-' ? ` · ${d}` : ''}` }] };
  }
  const err = Number.isFinite(row.rme) ? (row.opsPerSec * row.rme) / 100 : 0;
  const d = fmtDelta(row, bench, baseline);
  return { label, sublabel, bars: [{ value: row.opsPerSec, err, colour: colour(row.driver), bold: isBase, text: `${fmtOps(row.opsPerSec)} ± ${fmtPct(row.rme)}${d && d !== '-' ? ` · ${d}` : ''}` }] };
}

/** Pure: one bench's section: its chart, its table, its notes, profile diffs and own tables. */
function benchSection(results, bench, { colour, profileDiffs }) {
  const baseline = results.settings?.baseline;
  const count = results.settings?.count;
  const counted = Boolean(count);
  const rows = orderedRows(results, bench);
  // The bench's reference: the baseline, or the first driver that ran it when the baseline could not.
  const reference = bench.deltaReference ?? baseline;
  const base = rows.find((r) => r.driver === reference && r.ok);
  const groups = rows.map((row) => barGroup(row, bench, { reference, baseline, counted, colour }));
  const body = [`<section class="bench" id="bench-${esc(bench.name)}">`, `<h2>${esc(bench.name)}</h2>`, `<p class="sub">${esc(bench.title ?? '')}</p>`];
  if (bench.sql) body.push(`<p class="sql"><code>${esc(bench.sql)}</code></p>`);
  const figure = (row) => (counted ? row.count.perOp : row.opsPerSec);
  body.push(barChart({ title: `${bench.name}: ${counted ? counterOf(count).unit : 'ops/s'} per driver`, groups, marker: base ? { value: figure(base), label: reference } : null }));
  body.push(counted ? countTable(rows, bench, baseline, count) : resultsTable(rows, bench, baseline, hasAllocation(results)));
  if (bench.deltaNote) body.push(`<p class="sub">${esc(bench.deltaNote)}</p>`);
  const rowNotes = rows.flatMap((row) => deltaNotes(bench, row));
  if (rowNotes.length) body.push(`<ul class="notes">${rowNotes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  if (bench.budgetStop) body.push(`<p class="sub">${esc(describeBudgetStop(bench))}</p>`);
  if (bench.note) body.push(`<p class="sub">${esc(bench.note)}</p>`);
  for (const p of profileDiffs.filter((x) => x.bench === bench.name)) body.push(profileTable(p));
  for (const t of bench.tables ?? []) body.push(benchTable(t));
  body.push('</section>');
  return body;
}

/** One bar chart per bench: ops/s per driver with ± margin of error, the baseline marked. */
export function renderResultsHtml(results, { profileDiffs = [] } = {}) {
  const baseline = results.settings?.baseline;
  const history = renderHistoryHtml(results);
  const colour = history ? oneColour : driverColours((results.drivers ?? []).map((d) => d.name));
  const body = [];
  body.push(`<h1>mysql-driver-bench results${results.complete === false ? ' (INCOMPLETE)' : ''}</h1>`);
  const opening = verdictHtml(results);
  if (opening) body.push(opening);
  // A release history's chart and steps are the evidence of the verdict its steps make: right after it.
  if (history) body.push(history);
  const tested = results.benches.some((b) => b.results.some((r) => typeof r.deltaSignificant === 'boolean'));
  const count = results.settings?.count;
  const counted = Boolean(count);
  body.push(counted
    ? `<p class="sub">${esc(counterOf(count).perOp)} per driver, lower is less work; baseline: <b>${esc(baseline)}</b> (outlined bar, dashed line); ${esc(describeCount(results.settings.count))}.</p>`
    : `<p class="sub">ops/s per driver, higher is better; whiskers: ± relative margin of error (95 %); baseline: <b>${esc(baseline)}</b> (outlined bar, dashed line)${tested ? `; ${esc(describeSignificanceRule(results.resolution))}` : ''}.</p>`);
  if (results.complete === false) body.push(`<p class="bad">Incomplete run: ${esc(results.stoppedBy ?? 'it did not finish')} — only the rows measured are shown.</p>`);
  const forest = forestSvg(results, { colour });
  if (forest) {
    body.push(`<p class="sub"><b>Every Δ against ${esc(baseline)}</b>: the point, its interval (whisker), ${counted ? 'the count\'s noise floor' : 'the run\'s resolution'} shaded around 0; grey hollow points (~) are no real difference.</p>`);
    body.push(forest);
  }
  body.push(environmentBlock(results));
  // A --rate pass's entries are drawn per bench as latency against throughput (rateSections).
  for (const bench of results.benches.filter((b) => !b.rate)) body.push(...benchSection(results, bench, { colour, profileDiffs }));
  body.push(...rateSections(results, colour));
  return page(`mysql-driver-bench results ${results.startedAt ?? ''}`, body.join('\n'));
}

/** --rate: per bench, the latency-against-throughput chart and its table. */
function rateSections(results, colour) {
  const baseline = results.settings?.baseline;
  return rateData(results).map((b) => {
    const head = rateHead(baseline);
    const num = (v) => `<td class="num">${esc(v)}</td>`;
    const rows = b.entries.flatMap((entry) => entry.results.map((row, i) => {
      const first = `<td>${i === 0 ? esc(describeRate(entry.rate)) : ''}</td><td>${esc(row.driver)}</td>`;
      if (!(row.ok && row.rate)) return `<tr>${first}<td colspan="${head.length - 2}" class="${row.status === 'n/a' ? 'na' : 'failed'}">${esc(`${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error ?? ''}`)}</td></tr>`;
      return `<tr>${first}${rateFigures(row, entry, baseline, results.settings.rate).map(num).join('')}</tr>`;
    }));
    const missed = b.entries.flatMap((entry) => entry.results.filter((r) => r.ok && r.rate && !r.rate.sustained).map((r) => notSustained(b.bench, entry, r)));
    return [
      `<section class="bench" id="rate-${esc(b.bench.replace(/\s+/g, ''))}">`,
      `<h2>${esc(b.bench)}: latency against throughput</h2>`,
      `<p class="sub">an open schedule (${esc(results.settings.rate?.schedule ?? 'poisson')} arrivals) at each rate; latency from each operation's intended start, so a stall counts against every operation that should have started during it.</p>`,
      rateChartSvg(b, colour),
      `<table><tr>${head.map((h, i) => `<th${i > 1 ? ' class="num"' : ''}>${esc(h)}</th>`).join('')}</tr>${rows.join('')}</table>`,
      missed.length ? `<p class="warn">${missed.map(esc).join('<br>')}</p>` : '',
      '</section>',
    ].join('\n');
  });
}

/** A bench's own table (results' `benches[].tables`). */
function benchTable(t) {
  const th = t.head.map((h) => `<th>${esc(h)}</th>`).join('');
  const tr = (t.rows ?? []).map((row) => `<tr>${row.map((c) => `<td${c === 'FAILED' ? ' class="failed"' : c === 'n/a' ? ' class="na"' : ''}>${esc(c)}</td>`).join('')}</tr>`).join('');
  const notes = t.notes?.length ? `<ul class="notes">${t.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  return `<h3>${esc(t.title)}</h3><table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>${notes}`;
}

function resultsTable(rows, bench, baseline, allocated = false) {
  const head = ['driver', 'protocol', 'ops/s', '± rme', 'samples', 'p50 µs', 'p99 µs', ...COST_HEAD, ...(allocated ? ALLOCATION_HEAD : []), `Δ vs ${baseline}`];
  const num = [false, false, ...Array(allocated ? 12 : 9).fill(true)];
  const th = head.map((h, i) => `<th${num[i] ? ' class="num"' : ''}>${esc(h)}</th>`).join('');
  const tr = rows.map((row) => {
    const cells = [
      row.driver, row.protocol ?? '', statusText(row),
      row.ok ? fmtPct(row.rme) : '', row.ok ? String(row.samples ?? '') : '',
      row.ok ? fmtUs(row.latency?.p50) : '', row.ok ? fmtUs(row.latency?.p99) : '',
      ...costTexts(row),
      ...(allocated ? allocationTexts(row) : []),
      row.ok ? fmtDelta(row, bench, baseline) : (row.error ?? ''),
    ];
    const cls = row.ok ? '' : row.status === 'n/a' ? ' class="na"' : ' class="failed"';
    return `<tr${cls}>${cells.map((c, i) => `<td${num[i] && row.ok ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`;
  }).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

/** Where the instructions went between two rows' kept profiles (results/profile-diff.js): the top functions by self Δ. */
function profileTable({ a, b, diff }) {
  const rows = diff.rows.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.where)}</td><td class="num">${signed(r.selfDelta)}</td>`
    + `<td class="num">${signed(r.inclusiveDelta)}</td><td class="num">${share(r.sharePct)}</td></tr>`);
  return `<h3>Where the instructions went: ${esc(b)} against ${esc(a)} (${signed(diff.totalDelta)} instructions/op)</h3>`
    + '<table><thead><tr><th>function</th><th>file:line</th><th>self Δ/op</th><th>inclusive Δ/op</th><th>share of Δ</th></tr></thead>'
    + `<tbody>${rows.join('')}</tbody></table>`
    + `<p class="sub">unnamed JIT code: ${signed(diff.unnamed.selfDelta)}/op, ${share(diff.unnamed.sharePct)} of the Δ (from the rows' kept callgrind profiles; mysql-driver-bench profile prints more).</p>`;
}

function countTable(rows, bench, baseline, count) {
  const head = ['driver', 'protocol', ...countHead(count), `Δ vs ${baseline}`];
  const th = head.map((h, i) => `<th${i > 1 ? ' class="num"' : ''}>${esc(h)}</th>`).join('');
  const tr = rows.map((row) => {
    const cells = [row.driver, row.protocol ?? '', ...countCells(row, bench, baseline, count)];
    if (!row.ok) cells[cells.length - 1] = row.error ?? '';
    const cls = row.ok ? '' : row.status === 'n/a' ? ' class="na"' : ' class="failed"';
    return `<tr${cls}>${cells.map((c, i) => `<td${i > 1 && row.ok ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`;
  }).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

/** One chart per bench: base and new ops/s per driver side by side, with Δ and significance. */
export function renderComparisonHtml(c) {
  const drivers = [...new Set(c.rows.map((r) => r.driver))];
  const colour = driverColours(drivers);
  const body = [];
  body.push('<h1>mysql-driver-bench comparison</h1>');
  body.push(`<p class="sub">ops/s, higher is better; grey: base run, coloured: new run; whiskers: ± relative margin of error (95 %). The bars carry the host's speed; the judged figure is ${esc(c.rule)}.</p>`);
  for (const w of c.warnings) body.push(`<p class="warn">warning: ${esc(w)}</p>`);
  if (c.threshold !== null) {
    body.push(c.regressions.length
      ? `<p class="bad">Regression (threshold ${esc(c.threshold)} %): ${esc(listRegressions(c))}</p>`
      : `<p class="good">No significant regression larger than ${esc(c.threshold)} %.</p>`);
  }
  if (c.driverChanges.length) body.push(`<p class="sub">${c.driverChanges.map((d) => `${esc(d.driver)}: ${esc(d.base)} → ${esc(d.new)}`).join(' · ')}</p>`);

  // Geometric means first: the one-line answer per driver.
  const gHead = `<tr><th>driver</th><th class="num">base ops/s</th><th class="num">new ops/s</th><th class="num">ops/s Δ</th><th class="num">${esc(judgedHeader(c))}</th><th>benches</th></tr>`;
  const gRows = c.geomean.map((g) => `<tr><td>${esc(g.driver)}</td><td class="num">${esc(fmtOps(g.base))}</td><td class="num">${esc(fmtOps(g.new))}</td><td class="num">${esc(fmtSignedPct(g.opsDeltaPct))}</td><td class="num">${esc(g.anchor ? 'anchor' : fmtSignedPct(g.deltaPct))}</td><td>${esc(fmtGeomeanChanges(g))}</td></tr>`).join('');
  body.push('<h2>Geometric mean per driver</h2>');
  body.push(`<table><thead>${gHead}</thead><tbody>${gRows}</tbody></table>`);

  const benches = [...new Set(c.rows.map((r) => r.bench))];
  for (const bench of benches) {
    const rows = c.rows.filter((r) => r.bench === bench);
    const groups = rows.map((r) => ({
      label: r.driver,
      sublabel: r.regression ? 'REGRESSION' : (r.protocolChanged ? `${r.base.protocol} → ${r.new.protocol}` : r.new.protocol ?? ''),
      alert: r.regression,
      bars: [
        { value: r.base.opsPerSec, err: errOf(r.base), colour: BASE_COLOUR, text: `base ${fmtOps(r.base.opsPerSec)} ± ${fmtPct(r.base.rme)}` },
        { value: r.new.opsPerSec, err: errOf(r.new), colour: colour(r.driver), bold: r.regression, text: `new ${fmtOps(r.new.opsPerSec)} ± ${fmtPct(r.new.rme)} · ops/s ${fmtSignedPct(r.opsDeltaPct)} · ${judgedHeader(c)} ${fmtJudged(r)}` },
      ],
    }));
    body.push(`<section class="bench" id="bench-${esc(bench)}">`);
    body.push(`<h2>${esc(bench)}</h2>`);
    body.push(barChart({ title: `${bench}: base and new ops/s per driver`, groups }));
    const head = `<tr><th>driver</th><th class="num">base ops/s</th><th class="num">new ops/s</th><th class="num">ops/s Δ</th><th class="num">base → new</th><th class="num">${esc(judgedHeader(c))}</th><th>note</th></tr>`;
    const tr = rows.map((r) => `<tr${r.regression ? ' class="failed"' : ''}><td>${esc(r.driver)}</td><td class="num">${esc(fmtOps(r.base.opsPerSec))}</td><td class="num">${esc(fmtOps(r.new.opsPerSec))}</td><td class="num">${esc(fmtSignedPct(r.opsDeltaPct))}</td><td class="num">${esc(fmtVsAnchor(r))}</td><td class="num">${esc(fmtJudged(r))}</td><td>${esc(rowNote(r, c))}</td></tr>`).join('');
    body.push(`<table><thead>${head}</thead><tbody>${tr}</tbody></table>`);
    body.push('</section>');
  }
  const lists = [];
  for (const n of c.notCompared) lists.push(`not compared: ${n.bench} · ${n.driver}: ${n.base} in base, ${n.new} in new${n.error ? ` (${n.error})` : ''}`);
  if (c.onlyInBase.length) lists.push(`only in base: ${c.onlyInBase.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (c.onlyInNew.length) lists.push(`only in new: ${c.onlyInNew.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (lists.length) body.push(`<h2>Rows not compared</h2><ul class="notes">${lists.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`);
  body.push('<h2>Environment</h2>');
  for (const [side, s] of [['base', c.base], ['new', c.new]]) {
    body.push(`<h3>${side}${s.file ? ` · <code>${esc(s.file)}</code>` : ''}</h3>`);
    body.push(environmentBlock(s));
  }
  return page('mysql-driver-bench comparison', body.join('\n'));
}

const errOf = (f) => (Number.isFinite(f.rme) ? (f.opsPerSec * f.rme) / 100 : 0);
