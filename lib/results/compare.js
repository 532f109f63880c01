// Pure: two results objects -> a comparison object (its renderings: reporting/compare-text.js,
// markdown.js, html.js). Nothing here reads files, measures or prints.
import { SIGNIFICANCE_ALPHA, significantDifference, deltaPct, noiseFloorPct, median } from '../measuring/stats.js';
import { fmtSignedPct } from '../reporting/format.js';

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
// `optional`: only compared when at least one run records it (older results files lack it);
// `applies`: only compared when both runs meet it.
const CONDITIONS = [
  { what: 'server version', get: (r) => r.server?.version },
  { what: 'server kind', get: (r) => r.server?.kind },
  { what: 'server', get: (r) => (r.server ? (r.server.embedded ? 'embedded' : 'remote') : undefined), optional: true },
  // Before the data went to memory where it could, the embedded server kept it on the disk.
  {
    what: "the embedded server's data", get: (r) => r.server?.storage ?? 'disk', applies: (a, b) => a.server?.embedded && b.server?.embedded,
  },
  { what: 'BLACKHOLE engine', get: (r) => r.server?.blackhole, optional: true },
  { what: 'bulk support', get: (r) => r.server?.bulk, optional: true },
  { what: 'CPU', get: (r) => r.env && `${r.env.cpus} × ${r.env.cpuModel}` },
  { what: 'platform', get: (r) => r.env?.platform },
  { what: 'Node version', get: (r) => r.env?.node },
  { what: 'concurrency', get: (r) => r.settings?.concurrency },
  { what: 'run mode', get: (r) => r.settings?.mode, optional: true },
  { what: 'wake mode', get: (r) => r.settings?.wake, optional: true, decisive: true },
  // Before --jit, every run compiled in the background.
  { what: 'JIT compiles', get: (r) => (r.settings ? r.settings.jit ?? 'background' : undefined), optional: true, decisive: true },
  { what: 'CPU placement', get: (r) => r.settings?.placement?.mode ?? (r.schema >= 2 ? undefined : 'none (results schema 1)'), optional: true, decisive: true },
  { what: 'measuring method', get: (r) => (r.schema >= 2 ? 'interleaved windows, driver processes of their own' : 'sequential cells in one process'), decisive: true },
  // One process per row carries that process's own speed into every figure (README, Limitations).
  { what: 'processes per driver', get: (r) => r.settings?.processes ?? (r.schema >= 2 ? 1 : undefined), optional: true },
  { what: 'network', get: (r) => requestedNetwork(r.settings?.network), optional: true },
  // Before 2026-11-23 every warm-up was a fixed length, and a run's first benches began on cold code.
  { what: 'warm-up', get: (r) => (r.settings ? (r.settings.warmupSettles ? 'until each process is up to speed' : 'as given') : undefined), optional: true },
];

/** One line per condition that differs between the two runs. */
export function incomparabilities(base, next) {
  const lines = [];
  for (const c of CONDITIONS) {
    const a = c.get(base);
    const b = c.get(next);
    if (c.optional && (a === undefined || a === null) && (b === undefined || b === null)) continue;
    if (c.applies && !c.applies(base, next)) continue;
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
    serverCpuUsPerOp: row.cost?.serverCpuUsPerOp ?? null,
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

/** Both runs' rows by `bench\0driver`, in the new run's bench order, then the base's; drivers in --drivers order. */
function pairRows(base, next) {
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
  return keys.map((key) => {
    const [bench, driver] = key.split('\0');
    return { bench, driver, a: baseRows.get(key)?.row, b: newRows.get(key)?.row };
  });
}

/** One measured row in both runs -> its comparison row: Δ, the significance test, regression or not. */
function compareRow({ bench, driver, a, b }, { threshold, alpha }) {
  const tested = hasSamples(a) && hasSamples(b);
  const d = deltaPct(b.opsPerSec, a.opsPerSec);
  const { p, significant } = tested
    ? significantDifference(a.sampleOpsPerSec, b.sampleOpsPerSec, alpha, { deltaPct: d, noisePct: noiseFloorPct(a, b) })
    : { p: NaN, significant: false };
  const row = {
    bench,
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
  return row;
}

/** Every pair of rows sorted into: compared rows, not compared (failed or n/a), in one run only, and newly broken. */
function compareRows(base, next, options) {
  const out = { rows: [], notCompared: [], onlyInBase: [], onlyInNew: [], broken: [] };
  for (const pair of pairRows(base, next)) {
    const { bench, driver, a, b } = pair;
    if (!a) { out.onlyInNew.push({ bench, driver, status: b.status }); continue; }
    if (!b) { out.onlyInBase.push({ bench, driver, status: a.status }); continue; }
    if (!a.ok || !b.ok) {
      if (a.status === 'n/a' && b.status === 'n/a') continue; // nothing to compare, nothing changed
      const entry = { bench, driver, base: a.status, new: b.status, error: (b.ok ? a.error : b.error) ?? null };
      out.notCompared.push(entry);
      if (a.ok && b.status === 'failed') out.broken.push(entry);
      continue;
    }
    out.rows.push(compareRow(pair, options));
  }
  return out;
}

/**
 * Geometric mean per driver over the benches compared for it: the ratio new/base of the two
 * geometric means equals the geometric mean of the per-bench ratios.
 */
function geomeanPerDriver(rows) {
  const drivers = [...new Set(rows.map((r) => r.driver))];
  return drivers.map((driver) => {
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
}

/** Drivers whose version (or the package they come through) differs between the runs. */
function driverChangesOf(base, next) {
  const driverChanges = [];
  const baseDrivers = new Map((base.drivers ?? []).map((d) => [d.name, d]));
  for (const d of next.drivers ?? []) {
    const old = baseDrivers.get(d.name);
    if (old && (old.version !== d.version || (old.via ?? null) !== (d.via ?? null))) {
      driverChanges.push({ driver: d.name, base: old.version, new: d.version, baseVia: old.via ?? null, newVia: d.via ?? null });
    }
  }
  return driverChanges;
}

/**
 * Drivers of the same version in both runs should not have moved: when most of them moved together
 * (the median of their geometric-mean changes, so one driver that did change cannot fake it), the
 * host ran at a different speed, and changes of that size elsewhere may be the host too.
 */
function hostShift(geomean, driverChanges) {
  const changed = new Set(driverChanges.map((d) => d.driver));
  const steady = geomean.filter((g) => !changed.has(g.driver) && g.benches > 0);
  const hostShiftPct = steady.length >= 2 ? median(steady.map((g) => g.deltaPct)) : null;
  const warning = hostShiftPct !== null && Math.abs(hostShiftPct) >= HOST_SHIFT_WARN_PCT
    ? `the drivers whose version did not change (${steady.map((g) => g.driver).join(', ')}) moved by a median of `
      + `${fmtSignedPct(hostShiftPct)} (geometric means per driver): the host itself ran at a different speed, and changes of that size may be the host, not the drivers`
    : null;
  return { hostShiftPct, warning };
}

/**
 * The host's own change of speed as the embedded server saw it: the median, over the rows measured in
 * both runs with the same protocol, of the change in the server's CPU µs per operation. The server
 * does the same work for the same statement whichever run asks, so its CPU time per operation moves
 * with the host's speed: over 105 pairs of this machine's default runs (same drivers and settings)
 * the median change of the rows' ops/s followed it at r = -0.95 (README, compare). Unlike hostShift,
 * this needs no unchanged driver: it holds for one driver compared across two releases. Null without
 * server CPU figures (a remote server, older files).
 */
function serverCpuShift(rows) {
  const logs = rows.filter((r) => !r.protocolChanged && r.base.serverCpuUsPerOp > 0 && r.new.serverCpuUsPerOp > 0)
    .map((r) => Math.log(r.new.serverCpuUsPerOp / r.base.serverCpuUsPerOp));
  const serverCpuShiftPct = logs.length > 0 ? (Math.exp(median(logs)) - 1) * 100 : null;
  const warning = serverCpuShiftPct !== null && Math.abs(serverCpuShiftPct) >= HOST_SHIFT_WARN_PCT
    ? `the server needed ${fmtSignedPct(serverCpuShiftPct)} CPU per operation for the same statements (median of ${logs.length} rows): `
      + `the host ran ${serverCpuShiftPct > 0 ? 'slower' : 'faster'} in the new run, and ops/s changes of about that size (in the other direction) may be the host, not the drivers`
    : null;
  return { serverCpuShiftPct, warning };
}

/** The runs' incomparabilities, rows without per-sample figures, and the host's own shift (as the drivers and the server saw it). */
function warningsOf(base, next, rows, shifts) {
  const warnings = incomparabilities(base, next);
  const untested = rows.filter((r) => !r.tested).length;
  if (untested) {
    warnings.push(`${untested} row${untested > 1 ? 's lack' : ' lacks'} per-sample figures (sampleOpsPerSec; results from an older version): significance not tested, shown as ?`);
  }
  for (const shift of shifts) if (shift.warning) warnings.push(shift.warning);
  return warnings;
}

/**
 * Compare two results objects. Rows are matched by bench name and driver label (`mysql2`,
 * `mysql2@3.9.0`, ...). `threshold` (a percentage, or null): a row is a regression when the new
 * figure is significantly lower and lower by more than that; a row that passed its check in the
 * base run and fails it in the new one is a regression too.
 */
export function compareResults(base, next, { threshold = null, baseFile, newFile, alpha = SIGNIFICANCE_ALPHA } = {}) {
  const { rows, notCompared, onlyInBase, onlyInNew, broken } = compareRows(base, next, { threshold, alpha });
  const geomean = geomeanPerDriver(rows);
  const driverChanges = driverChangesOf(base, next);
  const shift = hostShift(geomean, driverChanges);
  const serverShift = serverCpuShift(rows);
  const warnings = warningsOf(base, next, rows, [shift, serverShift]);
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
    hostShiftPct: shift.hostShiftPct,
    serverCpuShiftPct: serverShift.serverCpuShiftPct,
    rows,
    geomean,
    notCompared,
    onlyInBase,
    onlyInNew,
    regressions,
  };
}
