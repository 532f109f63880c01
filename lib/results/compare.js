// Pure: two results objects -> a comparison object (and its text table). Nothing here reads files,
// measures or prints.
import Table from 'cli-table3';
import { SIGNIFICANCE_ALPHA, significantDifference, deltaPct, noiseFloorPct, median } from '../measuring/stats.js';
import { fmtOps, fmtPct, fmtSignedPct } from '../reporting/format.js';

export const COMPARISON_KIND = 'comparison';
// Two runs are not paired (their windows were not taken side by side), so `compare` has a rule of its
// own: the U test between the two rows' window figures, and a change beyond their window-to-window spread.
export const SIGNIFICANCE_TEST = 'two-sided Mann-Whitney U test on the per-window ops/s (per-sample in schema-1 files), and |Δ| beyond the larger window-to-window spread (interquartile range) of the two rows';

/** A value for a warning line: objects such as the wake mode `{ mode, spinners }` made readable. */
export function describeSetting(value) {
  if (value === undefined || value === null) return 'not recorded';
  if (typeof value === 'object') {
    if (typeof value.mode === 'string') return value.mode === 'spin' && value.spinners ? `spin:${value.spinners}` : value.mode;
    return JSON.stringify(value);
  }
  return String(value);
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The network a run asked for, without what its proxy measured (which differs in every run). */
function requestedNetwork(network) {
  if (typeof network?.rttMs !== 'number') return network;
  return network.rttMs === 0 ? 'loopback' : `+${network.rttMs} ms RTT`;
}

// What makes two runs' figures incomparable, in the order the warnings are printed.
// `optional`: only compared when at least one run records it (older results files lack it).
const CONDITIONS = [
  { what: 'server version', get: (r) => r.server?.version },
  { what: 'server kind', get: (r) => r.server?.kind },
  { what: 'server', get: (r) => (r.server ? (r.server.embedded ? 'embedded' : 'remote') : undefined), optional: true },
  { what: 'BLACKHOLE engine', get: (r) => r.server?.blackhole, optional: true },
  { what: 'bulk support', get: (r) => r.server?.bulk, optional: true },
  { what: 'CPU', get: (r) => r.env && `${r.env.cpus} × ${r.env.cpuModel}` },
  { what: 'platform', get: (r) => r.env?.platform },
  { what: 'Node version', get: (r) => r.env?.node },
  { what: 'concurrency', get: (r) => r.settings?.concurrency },
  { what: 'run mode', get: (r) => r.settings?.mode, optional: true },
  { what: 'wake mode', get: (r) => r.settings?.wake, optional: true, decisive: true },
  { what: 'CPU placement', get: (r) => r.settings?.placement?.mode ?? (r.schema >= 2 ? undefined : 'none (results schema 1)'), optional: true, decisive: true },
  { what: 'measuring method', get: (r) => (r.schema >= 2 ? 'interleaved windows, one process per driver' : 'sequential cells in one process'), decisive: true },
  { what: 'network', get: (r) => requestedNetwork(r.settings?.network), optional: true },
];

/** One line per condition that differs between the two runs. */
export function incomparabilities(base, next) {
  const lines = [];
  for (const c of CONDITIONS) {
    const a = c.get(base);
    const b = c.get(next);
    if (c.optional && (a === undefined || a === null) && (b === undefined || b === null)) continue;
    if (same(a, b)) continue;
    lines.push(`${c.what} differs: ${describeSetting(a)} (base) vs ${describeSetting(b)} (new) — `
      + (c.decisive ? 'the runs are incomparable: take both with the same settings' : 'the figures may not be comparable'));
  }
  for (const [side, r] of [['base', base], ['new', next]]) {
    if (r.complete === false) lines.push(`the ${side} run is incomplete (${r.stoppedBy ?? 'it did not finish'}) — only its measured rows are compared`);
  }
  return lines;
}

function runSummary(r, file) {
  return {
    file: file ?? null,
    startedAt: r.startedAt ?? null,
    complete: r.complete ?? null,
    stoppedBy: r.stoppedBy ?? null,
    env: r.env ?? null,
    server: r.server ?? null,
    drivers: r.drivers ?? [],
    settings: r.settings ?? {},
  };
}

function figures(row) {
  return {
    opsPerSec: row.opsPerSec,
    rme: row.rme ?? null,
    samples: row.samples ?? null,
    protocol: row.protocol ?? null,
  };
}

const hasSamples = (row) => Array.isArray(row?.sampleOpsPerSec) && row.sampleOpsPerSec.length >= 2;

/** Unchanged drivers moving together by this much (%) is reported as the host's own shift. */
export const HOST_SHIFT_WARN_PCT = 5;

/** Geometric mean of positive numbers; NaN for none. */
export function geometricMean(xs) {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (ok.length === 0 || ok.length !== xs.length) return NaN;
  return Math.exp(ok.reduce((s, x) => s + Math.log(x), 0) / ok.length);
}

/**
 * Compare two results objects. Rows are matched by bench name and driver label (`mysql2`,
 * `mysql2@3.9.0`, ...). `threshold` (a percentage, or null): a row is a regression when the new
 * figure is significantly lower and lower by more than that; a row that passed its check in the
 * base run and fails it in the new one is a regression too.
 */
export function compareResults(base, next, { threshold = null, baseFile, newFile, alpha = SIGNIFICANCE_ALPHA } = {}) {
  const rows = [];
  const notCompared = [];
  const onlyInBase = [];
  const onlyInNew = [];
  const broken = [];

  const index = (r) => {
    const m = new Map();
    for (const bench of r.benches ?? []) for (const row of bench.results ?? []) m.set(`${bench.name}\0${row.driver}`, { bench, row });
    return m;
  };
  const baseRows = index(base);
  const newRows = index(next);

  // Benches in the new run's order, then those only the base run has; within a bench, drivers in
  // the order the run names them (rows are stored in measuring order, which rotates).
  const benchOrder = [...new Set([...(next.benches ?? []), ...(base.benches ?? [])].map((b) => b.name))];
  const driverOrder = [...new Set([...(next.drivers ?? []), ...(base.drivers ?? [])].map((d) => d.name))];
  const rank = (list, x) => (list.indexOf(x) < 0 ? list.length : list.indexOf(x));
  const keys = [...new Set([...newRows.keys(), ...baseRows.keys()])].sort((x, y) => {
    const [bx, dx] = x.split('\0');
    const [by, dy] = y.split('\0');
    return rank(benchOrder, bx) - rank(benchOrder, by) || rank(driverOrder, dx) - rank(driverOrder, dy);
  });
  for (const key of keys) {
    const [benchName, driver] = key.split('\0');
    const a = baseRows.get(key)?.row;
    const b = newRows.get(key)?.row;
    if (!a) { onlyInNew.push({ bench: benchName, driver, status: b.status }); continue; }
    if (!b) { onlyInBase.push({ bench: benchName, driver, status: a.status }); continue; }
    if (!a.ok || !b.ok) {
      if (a.status === 'n/a' && b.status === 'n/a') continue; // nothing to compare, nothing changed
      const entry = { bench: benchName, driver, base: a.status, new: b.status, error: (b.ok ? a.error : b.error) ?? null };
      notCompared.push(entry);
      if (a.ok && b.status === 'failed') broken.push(entry);
      continue;
    }
    const tested = hasSamples(a) && hasSamples(b);
    const d = deltaPct(b.opsPerSec, a.opsPerSec);
    const { p, significant } = tested
      ? significantDifference(a.sampleOpsPerSec, b.sampleOpsPerSec, alpha, { deltaPct: d, noisePct: noiseFloorPct(a, b) })
      : { p: NaN, significant: false };
    const row = {
      bench: benchName,
      driver,
      base: figures(a),
      new: figures(b),
      deltaPct: d,
      p: Number.isFinite(p) ? p : null,
      tested,
      significant: tested && significant,
      change: !tested ? 'untested' : !significant ? 'none' : d > 0 ? 'faster' : 'slower',
      protocolChanged: (a.protocol ?? null) !== (b.protocol ?? null),
      regression: false,
    };
    row.regression = threshold !== null && row.significant && d !== null && d < -threshold;
    rows.push(row);
  }

  // Geometric mean per driver over the benches compared for it: the ratio new/base of the two
  // geometric means equals the geometric mean of the per-bench ratios.
  const drivers = [...new Set(rows.map((r) => r.driver))];
  const geomean = drivers.map((driver) => {
    const mine = rows.filter((r) => r.driver === driver);
    const gBase = geometricMean(mine.map((r) => r.base.opsPerSec));
    const gNew = geometricMean(mine.map((r) => r.new.opsPerSec));
    return {
      driver,
      benches: mine.length,
      base: gBase,
      new: gNew,
      deltaPct: deltaPct(gNew, gBase),
      faster: mine.filter((r) => r.change === 'faster').length,
      slower: mine.filter((r) => r.change === 'slower').length,
      unchanged: mine.filter((r) => r.change === 'none').length,
      untested: mine.filter((r) => r.change === 'untested').length,
    };
  });

  const warnings = incomparabilities(base, next);
  const untested = rows.filter((r) => !r.tested).length;
  if (untested) {
    warnings.push(`${untested} row${untested > 1 ? 's lack' : ' lacks'} per-sample figures (sampleOpsPerSec; results from an older version): significance not tested, shown as ?`);
  }

  const driverChanges = [];
  const baseDrivers = new Map((base.drivers ?? []).map((d) => [d.name, d]));
  for (const d of next.drivers ?? []) {
    const old = baseDrivers.get(d.name);
    if (old && (old.version !== d.version || (old.via ?? null) !== (d.via ?? null))) {
      driverChanges.push({ driver: d.name, base: old.version, new: d.version, baseVia: old.via ?? null, newVia: d.via ?? null });
    }
  }

  // Drivers of the same version in both runs should not have moved: when most of them moved together
  // (the median of their geometric-mean changes, so one driver that did change cannot fake it), the
  // host ran at a different speed, and changes of that size elsewhere may be the host too.
  const changed = new Set(driverChanges.map((d) => d.driver));
  const steady = geomean.filter((g) => !changed.has(g.driver) && g.benches > 0);
  const hostShiftPct = steady.length >= 2 ? median(steady.map((g) => g.deltaPct)) : null;
  if (hostShiftPct !== null && Math.abs(hostShiftPct) >= HOST_SHIFT_WARN_PCT) {
    warnings.push(`the drivers whose version did not change (${steady.map((g) => g.driver).join(', ')}) moved by a median of `
      + `${fmtSignedPct(hostShiftPct)} (geometric means per driver): the host itself ran at a different speed, and changes of that size may be the host, not the drivers`);
  }

  const regressions = [
    ...rows.filter((r) => r.regression).map((r) => ({ bench: r.bench, driver: r.driver, deltaPct: r.deltaPct, p: r.p, reason: 'slower' })),
    ...(threshold !== null ? broken.map((r) => ({ bench: r.bench, driver: r.driver, deltaPct: null, p: null, reason: `failed: ${r.error ?? 'check failed'}` })) : []),
  ];

  return {
    schema: 1,
    tool: 'mysql-driver-bench',
    kind: COMPARISON_KIND,
    test: SIGNIFICANCE_TEST,
    alpha,
    threshold,
    base: runSummary(base, baseFile),
    new: runSummary(next, newFile),
    warnings,
    driverChanges,
    hostShiftPct,
    rows,
    geomean,
    notCompared,
    onlyInBase,
    onlyInNew,
    regressions,
  };
}

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
