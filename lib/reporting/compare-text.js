// Pure: a comparison object (results/compare.js) -> the terminal's text, and the cells the Markdown
// and HTML renderings share with it.
import Table from 'cli-table3';
import { fmtOps, fmtPct, fmtSignedPct } from './format.js';

/** The significance cell: `~` when not significant, else the p-value; `?` when not tested. */
export function fmtSignificance(row) {
  if (!row.tested) return '?';
  if (!row.significant) return '~';
  return row.p < 0.001 ? 'p<0.001' : `p=${row.p.toFixed(3)}`;
}

export const fmtRme = (rme) => (Number.isFinite(rme) ? `± ${fmtPct(rme)}` : '');

export function fmtGeomeanChanges(g) {
  const parts = [];
  if (g.faster) parts.push(`${g.faster} faster`);
  if (g.slower) parts.push(`${g.slower} slower`);
  if (g.unchanged) parts.push(`${g.unchanged} ~`);
  if (g.untested) parts.push(`${g.untested} ?`);
  return `${parts.join(', ')} of ${g.benches}`;
}

export function rowNote(row) {
  const notes = [];
  if (row.regression) notes.push('REGRESSION');
  if (row.protocolChanged) notes.push(`protocol ${row.base.protocol} → ${row.new.protocol}`);
  return notes.join('; ');
}

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
  const table = new Table({
    head: ['bench', 'driver', 'base ops/s', '± rme', 'new ops/s', '± rme', 'Δ', 'significance', 'note'],
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  let lastBench = null;
  for (const r of c.rows) {
    table.push([
      r.bench === lastBench ? '' : r.bench,
      r.driver,
      fmtOps(r.base.opsPerSec), fmtPct(r.base.rme),
      fmtOps(r.new.opsPerSec), fmtPct(r.new.rme),
      fmtSignedPct(r.deltaPct),
      fmtSignificance(r),
      rowNote(r),
    ]);
    lastBench = r.bench;
  }
  c.geomean.forEach((g, i) => {
    table.push([i === 0 ? 'geomean' : '', g.driver, fmtOps(g.base), '', fmtOps(g.new), '', fmtSignedPct(g.deltaPct), '', fmtGeomeanChanges(g)]);
  });
  const lines = [describeComparedRun('base', c.base), describeComparedRun('new ', c.new)];
  for (const d of c.driverChanges) lines.push(`${d.driver}: ${d.base} → ${d.new}${d.newVia && d.newVia !== d.baseVia ? ` (via ${d.newVia})` : ''}`);
  lines.push(table.toString());
  lines.push(`significance: ${c.test}, α = ${c.alpha}; ~ = not significant${c.rows.some((r) => !r.tested) ? ', ? = not tested (no per-sample figures)' : ''}`);
  for (const n of c.notCompared) lines.push(`  not compared: ${n.bench} · ${n.driver}: ${n.base} in base, ${n.new} in new${n.error ? ` (${n.error})` : ''}`);
  if (c.onlyInBase.length) lines.push(`  only in base: ${c.onlyInBase.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (c.onlyInNew.length) lines.push(`  only in new: ${c.onlyInNew.map((r) => `${r.bench} · ${r.driver}`).join(', ')}`);
  if (c.threshold !== null) {
    lines.push(c.regressions.length
      ? `REGRESSION: ${c.regressions.map((r) => `${r.bench} · ${r.driver} ${r.reason === 'slower' ? fmtSignedPct(r.deltaPct) : r.reason}`).join(', ')} (threshold ${c.threshold} %)`
      : `no significant regression larger than ${c.threshold} %`);
  }
  return lines.join('\n') + '\n';
}
