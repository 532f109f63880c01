// Pure: the release history (results/history.js) as a report, per bench a chart of the figure per
// release and the table of its steps, as text, Markdown (the chart in a code block) or HTML (an SVG
// step chart); '' when the run's rows are not a release history.
import { releaseHistory } from '../results/history.js';
import { counterOf } from '../replay/counters/index.js';
import { fmtOps, fmtSignedPct } from '../common/format-numbers.js';
import { esc, niceStep } from './svg.js';
import { functionsText } from './function-name.js';

const unitOf = (results) => (results.settings?.count ? counterOf(results.settings.count).unit : 'ops/s');
const better = (h) => (h.counted ? 'fewer is better' : 'higher is better');
const rule = (h) => (h.counted ? `a step: a change beyond the count's noise floor of ±${h.floorPct} %`
  : "a step: the two releases' paired Δ intervals do not overlap");
// Each form's legend says which way a change is signed: a count's own way (+ is more work), ops/s's.
const changeRule = (h, unit) => {
  const row = h.item ?? 'release';
  return h.counted ? `change: the later ${row}'s ${unit} ÷ the earlier's − 1 (+ is more work)`
    : `change: the later ${row}'s ops/s ÷ the earlier's − 1, from their paired Δs (+ is faster)`;
};

/** One line per bench above its chart. */
function heading(h, unit) {
  return `${h.bench} · ${unit} (${better(h)}) · ${h.total.from} → ${h.total.to}: ${fmtSignedPct(h.total.changePct, 1)}, `
    + `${h.steps.length} step${h.steps.length === 1 ? '' : 's'}`;
}

/**
 * A compact text chart: one column per release (1 to 3 characters wide), `height` lines between the
 * lowest and the highest figure, a dot per release; under it a line marking each step's release with
 * its number, and the first and last releases. A release not measured is a gap.
 */
export function historyChart(h, { height = 6 } = {}) {
  const values = h.points.map((p) => p.value).filter((v) => v !== null);
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  const n = h.points.length;
  const w = Math.max(1, Math.min(3, Math.floor(60 / n)));
  const level = (v) => (hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (height - 1)));
  const labels = [fmtOps(hi), fmtOps(lo)];
  const lw = Math.max(...labels.map((l) => l.length));
  const lines = [];
  for (let r = height - 1; r >= 0; r--) {
    const label = r === height - 1 ? labels[0] : r === 0 ? labels[1] : '';
    const cells = h.points.map((p) => (p.value !== null && level(p.value) === r ? '●' : ' ').padEnd(w));
    lines.push(`  ${label.padStart(lw)} ┤${cells.join('')}`.trimEnd());
  }
  lines.push(`  ${' '.repeat(lw)} └${'─'.repeat(n * w)}`);
  const marks = h.points.map((p) => {
    const i = h.steps.findIndex((s) => s.to === p.release);
    return (i < 0 ? ' ' : i < 9 ? String(i + 1) : '+').padEnd(w);
  }).join('').trimEnd();
  if (marks) lines.push(`  ${' '.repeat(lw)}  ${marks}`);
  const ends = `${h.points[0].release} … ${h.points.at(-1).release} (${n} ${h.item ?? 'release'}s)`;
  lines.push(`  ${' '.repeat(lw)}  ${ends}`);
  return lines.join('\n');
}

/** A change from one release to another as the history prints it: two decimals under 1 %, else one. */
export const fmtStepChange = (pct) => fmtSignedPct(pct, Math.abs(pct) < 1 ? 2 : 1);

// A commit's subject beside its step, cut to a line's worth.
const SUBJECT_CHARS = 60;
const subjectOf = (history, label) => {
  const subject = history?.commits?.[label]?.subject ?? '';
  return subject.length > SUBJECT_CHARS ? `${subject.slice(0, SUBJECT_CHARS - 1)}…` : subject;
};

/** The steps as rows: [#, from → to (a commit range: with the later commit's subject), figure → figure, change, which way]. */
function stepRows(h, history) {
  return h.steps.map((s, i) => [String(i + 1), `${s.from} → ${s.to}${history?.commits ? ` ${subjectOf(history, s.to)}` : ''}`, `${fmtOps(s.fromValue)} → ${fmtOps(s.toValue)}`,
    fmtStepChange(s.changePct), s.better ? 'better' : 'worse']);
}

const STEP_HEAD = (unit, history) => ['#', history?.commits ? 'commits' : 'releases', unit, 'change', ''];

function textTable(head, rows) {
  const all = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const right = [false, false, true, true, false];
  return all.map((r) => `  ${r.map((cell, c) => (right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd()}`).join('\n');
}

/** Pure: each step's functions that moved, one line a step: `1: v8::internal::JSObject::MigrateToMap +363,000, …` (none when no step has them). */
export function stepFunctionLines(h) {
  return h.steps.map((s, i) => (s.functions?.length ? `${i + 1}: ${functionsText(s.functions)}` : null)).filter(Boolean);
}

function notes(h) {
  const out = [];
  if (h.unjudged) out.push(`${h.unjudged} pair${h.unjudged === 1 ? '' : 's'} of releases had no interval to judge (a --smoke run, or a row without rounds)`);
  const missing = h.points.filter((p) => p.value === null);
  if (missing.length) out.push(`not measured: ${missing.map((p) => `${p.release} (${p.status})`).join(', ')}; steps join the releases measured on either side`);
  return out;
}

function title(history) {
  const what = history.ranges.length ? history.ranges.join(', ') : `${history.package}, ${history.releases.length} releases`;
  return `${history.commits ? 'Commit' : 'Release'} history: ${what}`;
}

/** Pure: the terminal's release history, ending in a blank line before the table ('' when the run's rows are not one). */
export function renderHistoryText(results) {
  const history = releaseHistory(results);
  if (!history?.benches.length) return '';
  const unit = unitOf(results);
  const out = [title(history)];
  for (const h of history.benches) {
    out.push('', heading(h, unit), historyChart(h));
    out.push(h.steps.length ? textTable(STEP_HEAD(unit, history), stepRows(h, history)) : '  no step: every release within the noise of the one before');
    const moved = stepFunctionLines(h);
    if (moved.length) out.push(`  the functions that moved most, per step (${unit}):`, ...moved.map((l) => `    ${l}`));
    for (const n of notes(h)) out.push(`  ${n}`);
  }
  out.push('', `${rule(history.benches[0])}; ${changeRule(history.benches[0], unit)}.`);
  return `${out.join('\n')}\n\n`;
}

const mdCell = (s) => String(s).replace(/\|/g, '\\|');

/** Pure: the Markdown release history ('' when the run's rows are not one). */
export function renderHistoryMarkdown(results) {
  const history = releaseHistory(results);
  if (!history?.benches.length) return '';
  const unit = unitOf(results);
  const out = [`#### ${mdCell(title(history))}`, ''];
  for (const h of history.benches) {
    out.push(`**${mdCell(heading(h, unit))}**`, '', '```text', historyChart(h), '```', '');
    if (h.steps.length) {
      out.push(`| ${STEP_HEAD(unit, history).join(' | ')} |`, '| ---: | --- | ---: | ---: | --- |', ...stepRows(h, history).map((r) => `| ${r.map(mdCell).join(' | ')} |`), '');
      const moved = stepFunctionLines(h);
      if (moved.length) out.push(`The functions that moved most, per step (${unit}):`, '', ...moved.map((l) => `- \`${l.replace(/`/g, "'")}\``), '');
    } else out.push('No step: every release within the noise of the one before.', '');
    for (const n of notes(h)) out.push(`- ${mdCell(n)}`);
    if (notes(h).length) out.push('');
  }
  out.push(`${rule(history.benches[0])}; ${changeRule(history.benches[0], unit)}.`, '');
  return out.join('\n');
}

/** An SVG step chart of one bench's history: releases in order on x, the figure on y, steps in colour. */
export function historySvg(h, unit) {
  const [width, height, left, right, top, bottom] = [960, 300, 80, 20, 24, 80];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const values = h.points.map((p) => p.value).filter((v) => v !== null);
  const step = niceStep(Math.max(...values), 5);
  const max = Math.ceil(Math.max(...values) / step) * step || 1;
  const x = (i) => left + (h.points.length === 1 ? plotW / 2 : (i * plotW) / (h.points.length - 1));
  const y = (v) => top + plotH - (v / max) * plotH;
  const parts = [`<svg class="chart history" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`${h.bench}: ${unit} per release`)}">`];
  for (let v = 0; v <= max + 1e-9; v += step) {
    parts.push(`<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" font-size="11" text-anchor="end">${esc(fmtOps(v))}</text>`);
  }
  // The line steps at each release: flat from one release to the next, then up or down.
  let path = '';
  h.points.forEach((p, i) => {
    if (p.value === null) return;
    path += path ? ` H${x(i).toFixed(1)} V${y(p.value).toFixed(1)}` : `M${x(i).toFixed(1)} ${y(p.value).toFixed(1)}`;
  });
  parts.push(`<path d="${path}" fill="none" stroke="#0072B2" stroke-width="2"/>`);
  const every = Math.ceil(h.points.length / 40);
  h.points.forEach((p, i) => {
    const stepIndex = h.steps.findIndex((s) => s.to === p.release);
    if (p.value !== null) {
      const s = h.steps[stepIndex];
      const fill = !s ? '#0072B2' : s.better ? '#009E73' : '#D55E00';
      parts.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="${s ? 5 : 3}" fill="${fill}"><title>${esc(`${p.release}: ${fmtOps(p.value)} ${unit}${s ? ` · step ${stepIndex + 1}: ${fmtSignedPct(s.changePct, 1)} from ${s.from}` : ''}`)}</title></circle>`);
      if (s) parts.push(`<text x="${x(i).toFixed(1)}" y="${(y(p.value) - 9).toFixed(1)}" font-size="11" text-anchor="middle">${stepIndex + 1}</text>`);
    }
    if (i % every === 0 || stepIndex >= 0 || i === h.points.length - 1) {
      const ty = top + plotH + 12;
      parts.push(`<text x="${x(i).toFixed(1)}" y="${ty}" font-size="10" text-anchor="end" transform="rotate(-60 ${x(i).toFixed(1)} ${ty})">${esc(p.release)}</text>`);
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Pure: the HTML section of the release history ('' when the run's rows are not one). */
export function renderHistoryHtml(results) {
  const history = releaseHistory(results);
  if (!history?.benches.length) return '';
  const unit = unitOf(results);
  const out = [`<section class="history" id="release-history"><h2>${esc(title(history))}</h2>`,
    `<p class="sub">${esc(rule(history.benches[0]))}; ${esc(changeRule(history.benches[0], unit))}. Step points are drawn larger: green better, orange worse.</p>`];
  for (const h of history.benches) {
    out.push(`<h3>${esc(heading(h, unit))}</h3>`, historySvg(h, unit));
    if (h.steps.length) {
      out.push(`<table><thead><tr>${STEP_HEAD(unit, history).map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>`
        + stepRows(h, history).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('') + '</tbody></table>');
      const moved = stepFunctionLines(h);
      if (moved.length) out.push(`<p class="sub">The functions that moved most, per step (${esc(unit)}):</p><ul class="functions">${moved.map((l) => `<li><code>${esc(l)}</code></li>`).join('')}</ul>`);
    } else out.push('<p class="sub">No step: every release within the noise of the one before.</p>');
    const n = notes(h);
    if (n.length) out.push(`<ul class="notes">${n.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`);
  }
  out.push('</section>');
  return out.join('\n');
}
