// Pure: a comparison object (results/compare.js) -> the terminal's text, and the cells the Markdown
// and HTML renderings share with it.
import Table from 'cli-table3';
import { fmtOps, fmtPct, fmtSignedPct } from '../common/format-numbers.js';
import { counterNamed } from '../replay/counters/index.js';
import { ALLOCATION_FLOOR_PCT } from '../measuring/figures/allocation.js';

/** The interval's larger half around a change, the ± shown beside it. */
const margin = (r) => Math.max(Math.abs(r.ci[1] - r.deltaPct), Math.abs(r.deltaPct - r.ci[0]));

/**
 * A row's judged cell: 'anchor' on the row the others are judged against; the change against it with
 * its ± and `~` when the interval includes 0; `?` when it could not be tested; 'not judged' without an anchor.
 */
export function fmtJudged(row) {
  if (row.judged === 'anchor') return 'anchor';
  if (row.judged === 'absolute') return 'not judged';
  if (!Number.isFinite(row.deltaPct)) return '?';
  if (!row.ci) return `? ${fmtSignedPct(row.deltaPct)}`;
  const text = `${fmtSignedPct(row.deltaPct)} ±${margin(row).toFixed(1)}`;
  return row.significant ? text : `~ ${text}`;
}

/** A row's paired Δ against its anchor in each run, base → new ('' for the anchor and unjudged rows). */
export const fmtVsAnchor = (row) => (Number.isFinite(row.base.vsAnchorPct) && Number.isFinite(row.new.vsAnchorPct)
  ? `${fmtSignedPct(row.base.vsAnchorPct)} → ${fmtSignedPct(row.new.vsAnchorPct)}` : '');

/** The header of the judged column: `Δ vs mysql` (a row judged against another anchor says so in its note). */
export const judgedHeader = (c) => (c.anchor ? `Δ vs ${c.anchor}` : 'Δ (not judged)');

export function fmtGeomeanChanges(g) {
  if (g.anchor) return `anchor in ${g.benches}`;
  const parts = [];
  if (g.faster) parts.push(`${g.faster} faster`);
  if (g.slower) parts.push(`${g.slower} slower`);
  if (g.unchanged) parts.push(`${g.unchanged} ~`);
  if (g.untested) parts.push(`${g.untested} ?`);
  return parts.length ? `${parts.join(', ')} of ${g.benches}` : `${g.benches} not judged`;
}

export function rowNote(row, c) {
  const notes = [];
  if (row.regression) notes.push('REGRESSION');
  if (row.anchor && row.judged !== 'anchor' && row.anchor !== c?.anchor) notes.push(`vs ${row.anchor}`);
  if (row.protocolChanged) notes.push(`protocol ${row.base.protocol} → ${row.new.protocol}`);
  // Only where it widens the interval visibly: a host that changed speed by more than ~8 %.
  if (row.hostTermPct >= 1) notes.push(`± includes ${row.hostTermPct.toFixed(1)} % for the host's change of speed`);
  if (Math.abs(row.allocationDeltaPct ?? 0) > ALLOCATION_FLOOR_PCT) {
    notes.push(`bytes allocated/op ${fmtSignedPct(row.allocationDeltaPct)} (${row.allocationDeltaPct > 0 ? 'more' : 'fewer'}; floor ±${ALLOCATION_FLOOR_PCT} %)`);
  }
  return notes.join('; ');
}

/** The regressions of a comparison, as a list: `do · mysql2 -20.0 %, insert · mariadb failed: …`. */
export const listRegressions = (c) => c.regressions.map((r) => `${r.bench} · ${r.driver} ${r.reason === 'slower' ? fmtSignedPct(r.deltaPct) : r.reason}`).join(', ');

/** One line per run: when, where, which drivers. */
export function describeComparedRun(side, s) {
  const server = s.server ? `${s.server.kind === 'mysql' ? 'MySQL' : 'MariaDB'} ${s.server.version}${s.server.embedded === undefined ? '' : s.server.embedded ? ' (embedded)' : ' (remote)'}` : 'no server';
  const drivers = s.drivers.map((d) => `${d.name} ${d.version}`).join(', ');
  const env = s.env ? `Node ${s.env.node} · ${s.env.cpus} × ${s.env.cpuModel}` : '';
  const what = s.file ? `${s.file} (${s.startedAt ?? 'no date'})` : (s.startedAt ?? 'a run');
  return [`${side}: ${what}`, server, env, drivers].filter(Boolean).join(' · ');
}

/** The terminal rendering of a comparison. */
export function renderComparisonText(c, { color = false } = {}) {
  const vsHeader = c.anchor ? `vs ${c.anchor}: base → new` : 'base → new';
  const table = new Table({
    head: ['bench', 'driver', 'base ops/s', 'new ops/s', 'ops/s Δ', vsHeader, judgedHeader(c), 'note'],
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'left'],
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  let lastBench = null;
  for (const r of c.rows) {
    table.push([
      r.bench === lastBench ? '' : r.bench,
      r.driver,
      fmtOps(r.base.opsPerSec), fmtOps(r.new.opsPerSec), fmtSignedPct(r.opsDeltaPct),
      fmtVsAnchor(r), fmtJudged(r), rowNote(r, c),
    ]);
    lastBench = r.bench;
  }
  c.geomean.forEach((g, i) => {
    table.push([i === 0 ? 'geomean' : '', g.driver, fmtOps(g.base), fmtOps(g.new), fmtSignedPct(g.opsDeltaPct), '',
      g.anchor ? 'anchor' : fmtSignedPct(g.deltaPct), fmtGeomeanChanges(g)]);
  });
  const lines = [describeComparedRun('base', c.base), describeComparedRun('new ', c.new)];
  for (const d of c.driverChanges) lines.push(`${d.driver}: ${d.base} → ${d.new}${d.newVia && d.newVia !== d.baseVia ? ` (via ${d.newVia})` : ''}`);
  lines.push(table.toString());
  lines.push(c.rule);
  lines.push("ops/s Δ: each row's own change between the runs, which carries the host's speed: shown, never judged");
  for (const n of c.notCompared) lines.push(`  not compared: ${n.bench} · ${n.driver}: ${n.base} in base, ${n.new} in new${n.error ? ` (${n.error})` : ''}`);
  if (c.onlyInBase.length) lines.push(`  only in base: ${c.onlyInBase.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (c.onlyInNew.length) lines.push(`  only in new: ${c.onlyInNew.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (c.threshold !== null) {
    lines.push(c.regressions.length ? `REGRESSION: ${listRegressions(c)} (threshold ${c.threshold} %)` : `no significant regression larger than ${c.threshold} %`);
  }
  return lines.join('\n') + '\n';
}

/** Pure: two count runs compared (results/compare-counts.js), as text; c.kind names their counter. */
export function renderCountComparisonText(c) {
  const counter = counterNamed(c.kind);
  const table = new Table({
    head: ['bench', 'driver', `base ${counter.shortUnit}`, `new ${counter.shortUnit}`, 'change', ''],
    colAligns: ['left', 'left', 'right', 'right', 'right', 'left'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of c.rows) {
    const verdict = r.regression ? 'REGRESSION' : r.status !== 'ok' ? r.status.toUpperCase() : r.beyondFloor ? '' : '~';
    table.push([r.bench, r.driver, fmtOps(r.base), fmtOps(r.next), r.changePct === null ? '-' : fmtSignedPct(r.changePct, 2), verdict]);
  }
  const rule = `change: new ${counter.unit} ÷ base − 1 (+ is more work); ~ within the count's noise floor (±${c.floorPct} %)`
    + (c.threshold === null ? '' : `; REGRESSION: more work by over ${Math.max(c.threshold, c.floorPct)} %`);
  return `${table.toString()}\n  ${rule}\n${c.platform?.note ? `  ${c.platform.note}\n` : ''}`;
}

/** Pure: the same as a Markdown table. */
export function renderCountComparisonMarkdown(c) {
  const counter = counterNamed(c.kind);
  const lines = [`| bench | driver | base ${counter.shortUnit} | new ${counter.shortUnit} | change | |`, '| --- | --- | ---: | ---: | ---: | --- |'];
  for (const r of c.rows) {
    lines.push(`| ${r.bench} | ${r.driver} | ${fmtOps(r.base)} | ${fmtOps(r.next)} | ${r.changePct === null ? '-' : fmtSignedPct(r.changePct, 2)} | ${r.regression ? '**REGRESSION**' : r.beyondFloor ? '' : '~'} |`);
  }
  return `${lines.join('\n')}\n\n${counter.title}; change: new ÷ base − 1 (+ is more work); ~ within the count's noise floor (±${c.floorPct} %).\n${c.platform?.note ? `\n${c.platform.note}.\n` : ''}`;
}
