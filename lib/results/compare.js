// Pure: two results objects -> a comparison object (its renderings: reporting/compare-text.js,
// markdown.js, html.js). Nothing here reads files, measures or prints.
import { deltaPct } from '../common/stats.js';
import { rowKey, splitRowKey } from '../common/row-key.js';
import { HOST_FOLLOW, JOINT_LEVEL, eachIntervalLevel, pairedChangeBetweenRuns, pairedDelta } from '../measuring/figures/paired-delta.js';
import { anchorCandidates, unchangedDrivers } from './compare-anchor.js';
import { anchorWarnings, hostShift, incomparabilities, serverCpuShift } from './compare-warnings.js';

export const COMPARISON_KIND = 'comparison';
// 2: rows judged against an anchor (a driver unchanged in both runs), with intervals; 1 had a U test per row.
export const COMPARISON_SCHEMA = 2;

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

/** NaN unless every value is positive. */
export function geometricMean(xs) {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (ok.length === 0 || ok.length !== xs.length) return NaN;
  return Math.exp(ok.reduce((s, x) => s + Math.log(x), 0) / ok.length);
}

/** Both runs' rows by their rowKey, in the new run's bench order, then the base's; drivers in --drivers order. */
function pairRows(base, next) {
  const index = (r) => {
    const m = new Map();
    for (const bench of r.benches ?? []) for (const row of bench.results ?? []) m.set(rowKey(bench.name, row.driver), { bench, row });
    return m;
  };
  const baseRows = index(base);
  const newRows = index(next);

  // Rows are stored in measuring order, which rotates: sorted by the runs' own orders.
  const benchOrder = [...new Set([...(next.benches ?? []), ...(base.benches ?? [])].map((b) => b.name))];
  const driverOrder = [...new Set([...(next.drivers ?? []), ...(base.drivers ?? [])].map((d) => d.name))];
  const rank = (list, x) => (list.indexOf(x) < 0 ? list.length : list.indexOf(x));
  const keys = [...new Set([...newRows.keys(), ...baseRows.keys()])].sort((x, y) => {
    const [bx, dx] = splitRowKey(x);
    const [by, dy] = splitRowKey(y);
    return rank(benchOrder, bx) - rank(benchOrder, by) || rank(driverOrder, dx) - rank(driverOrder, dy);
  });
  return keys.map((key) => {
    const [bench, driver] = splitRowKey(key);
    return { bench, driver, a: baseRows.get(key)?.row, b: newRows.get(key)?.row };
  });
}

// Results from before the interleaved design (schema 1) have no rounds to pair.
const hasRounds = (row) => Array.isArray(row.rounds) && row.rounds.length > 0;

function figures(row, vsAnchor = null) {
  return {
    opsPerSec: row.opsPerSec,
    rme: row.rme ?? null,
    samples: row.samples ?? null,
    protocol: row.protocol ?? null,
    serverCpuUsPerOp: row.cost?.serverCpuUsPerOp ?? null,
    bytesPerOp: row.allocation?.bytesPerOp ?? null,
    vsAnchorPct: vsAnchor?.deltaPct ?? null,
    vsAnchorCI: vsAnchor?.ci ?? null,
  };
}

function baseRow({ bench, driver, a, b }, judged, anchor = null) {
  return {
    bench,
    driver,
    judged,
    anchor,
    base: figures(a),
    new: figures(b),
    opsDeltaPct: deltaPct(b.opsPerSec, a.opsPerSec),
    // Bytes allocated per operation, judged against their own A/A floor (a count, not a time).
    allocationDeltaPct: a.allocation?.bytesPerOp && b.allocation?.bytesPerOp ? deltaPct(b.allocation.bytesPerOp, a.allocation.bytesPerOp) : null,
    deltaPct: null,
    ci: null,
    hostTermPct: null,
    significant: false,
    change: judged === 'anchor' ? 'anchor' : judged === 'absolute' ? 'not judged' : 'untested',
    protocolChanged: (a.protocol ?? null) !== (b.protocol ?? null),
    regression: false,
  };
}

/** Judged by the change between the runs of its paired Δ against the bench's anchor, both intervals combined. */
function judgeRelative(row, pair, anchorPair, level, threshold) {
  const basePaired = pairedDelta(pair.a.rounds, anchorPair.a.rounds, level);
  const newPaired = pairedDelta(pair.b.rounds, anchorPair.b.rounds, level);
  row.base = figures(pair.a, basePaired);
  row.new = figures(pair.b, newPaired);
  if (!basePaired || !newPaired) return row;
  const change = pairedChangeBetweenRuns(basePaired, newPaired, { hostShift: anchorPair.b.opsPerSec / anchorPair.a.opsPerSec });
  row.deltaPct = change.deltaPct;
  row.ci = change.ci;
  row.hostTermPct = change.hostTermPct;
  if (!change.ci) return row;
  row.significant = change.ci[0] > 0 || change.ci[1] < 0;
  row.change = !row.significant ? 'none' : change.deltaPct > 0 ? 'faster' : 'slower';
  row.regression = threshold !== null && row.significant && change.deltaPct < -threshold;
  return row;
}

/** The pairs sorted into compared, not compared, in one run only and newly broken; `unanchored` benches. */
function compareRows(base, next, { threshold, anchors }) {
  const out = { rows: [], notCompared: [], onlyInBase: [], onlyInNew: [], broken: [], unanchored: [] };
  const measured = [];
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
    measured.push(pair);
  }

  const anchorOf = new Map();
  for (const name of [...new Set(measured.map((p) => p.bench))]) {
    const found = anchors.map((n) => measured.find((p) => p.bench === name && p.driver === n)).find(Boolean);
    anchorOf.set(name, found ?? null);
  }
  const relative = [];
  for (const pair of measured) {
    const anchorPair = anchorOf.get(pair.bench);
    if (!anchorPair) {
      out.rows.push(baseRow(pair, 'absolute'));
    } else if (anchorPair === pair) {
      out.rows.push(baseRow(pair, 'anchor', pair.driver));
    } else {
      const paired = [pair.a, pair.b, anchorPair.a, anchorPair.b].every(hasRounds);
      const row = baseRow(pair, paired ? 'relative' : 'untested', anchorPair.driver);
      out.rows.push(row);
      if (row.judged === 'relative') relative.push([row, pair, anchorPair]);
    }
  }
  // The comparison's intervals hold together at 95 %, as a run's Δ intervals do.
  const level = eachIntervalLevel(relative.length);
  for (const [row, pair, anchorPair] of relative) judgeRelative(row, pair, anchorPair, level, threshold);
  out.level = level;
  out.unanchored = [...anchorOf].filter(([, a]) => !a).map(([name]) => name);
  return out;
}

/** Per driver: new/base of its geometric means is the geometric mean of its per-bench ratios. */
function geomeanPerDriver(rows) {
  const drivers = [...new Set(rows.map((r) => r.driver))];
  return drivers.map((driver) => {
    const mine = rows.filter((r) => r.driver === driver);
    const gBase = geometricMean(mine.map((r) => r.base.opsPerSec));
    const gNew = geometricMean(mine.map((r) => r.new.opsPerSec));
    const judged = mine.filter((r) => Number.isFinite(r.deltaPct));
    return {
      driver,
      benches: mine.length,
      base: gBase,
      new: gNew,
      opsDeltaPct: deltaPct(gNew, gBase),
      deltaPct: judged.length ? (geometricMean(judged.map((r) => 1 + r.deltaPct / 100)) - 1) * 100 : null,
      anchor: mine.every((r) => r.judged === 'anchor'),
      faster: mine.filter((r) => r.change === 'faster').length,
      slower: mine.filter((r) => r.change === 'slower').length,
      unchanged: mine.filter((r) => r.change === 'none').length,
      untested: mine.filter((r) => r.change === 'untested').length,
    };
  });
}

// A row's runtime is part of what it ran: `mysql2~node@24` on 24.9.0 and on 24.21.0 are two codes.
// The harness's own Node is compared once, for the whole run (compare-warnings.js).
const runtimeOf = (d) => (d.runtime && !d.runtime.harness ? ` on ${d.runtime.kind} ${d.runtime.version}` : '');

function driverChangesOf(base, next) {
  const driverChanges = [];
  const baseDrivers = new Map((base.drivers ?? []).map((d) => [d.name, d]));
  for (const d of next.drivers ?? []) {
    const old = baseDrivers.get(d.name);
    if (old && (old.version !== d.version || (old.via ?? null) !== (d.via ?? null) || runtimeOf(old) !== runtimeOf(d))) {
      driverChanges.push({ driver: d.name, base: `${old.version}${runtimeOf(old)}`, new: `${d.version}${runtimeOf(d)}`, baseVia: old.via ?? null, newVia: d.via ?? null });
    }
  }
  return driverChanges;
}

/**
 * Each row judged by the change of its paired Δ against an anchor, a driver that ran the same code in both
 * runs, which cancels the host's speed; `threshold` (%, or null) makes a change lower by more a regression.
 */
export function compareResults(base, next, { threshold = null, baseFile, newFile, anchor = null } = {}) {
  const anchors = anchorCandidates(base, next, anchor);
  const { rows, notCompared, onlyInBase, onlyInNew, broken, unanchored, level } = compareRows(base, next, { threshold, anchors });
  const geomean = geomeanPerDriver(rows);
  const driverChanges = driverChangesOf(base, next);
  const anchored = rows.some((r) => r.judged !== 'absolute');
  const shift = hostShift(geomean, unchangedDrivers(base, next), anchored);
  const serverShift = serverCpuShift(rows, anchored);
  const warnings = [
    ...incomparabilities(base, next),
    ...anchorWarnings(base, next, { anchor, anchors, rows, unanchored }),
    ...[shift, serverShift].map((s) => s.warning).filter(Boolean),
  ];
  const untested = rows.filter((r) => r.judged === 'untested' || (r.judged === 'relative' && !r.ci)).length;
  if (untested) warnings.push(`${untested} row${untested > 1 ? 's' : ''} not tested (too few rounds for an interval, or results without rounds from an older version): shown as ?`);
  const regressions = [
    ...rows.filter((r) => r.regression).map((r) => ({ bench: r.bench, driver: r.driver, deltaPct: r.deltaPct, reason: 'slower' })),
    ...(threshold !== null ? broken.map((r) => ({ bench: r.bench, driver: r.driver, deltaPct: null, reason: `failed: ${r.error ?? 'check failed'}` })) : []),
  ];
  // The anchor named in the comparison's header: the first candidate that anchored a bench.
  const usedAnchors = anchors.filter((n) => rows.some((r) => r.anchor === n));

  return {
    schema: COMPARISON_SCHEMA,
    tool: 'mysql-driver-bench',
    kind: COMPARISON_KIND,
    mode: anchored ? 'relative' : 'absolute',
    anchor: usedAnchors[0] ?? null,
    anchors: usedAnchors,
    rule: describeCompareRule(usedAnchors, level, rows.filter((r) => r.judged === 'relative').length),
    jointLevel: JOINT_LEVEL,
    eachLevel: level,
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

/** `compare`'s one rule, in one line for under its table. */
export function describeCompareRule(anchors, level, judged) {
  if (anchors.length === 0) return 'no anchor: the ops/s Δ is absolute, exposed to the host\'s speed, and not judged';
  const [anchor, ...others] = anchors;
  const together = judged > 1 ? `, the ${judged} intervals holding together at ${JOINT_LEVEL * 100} % (each at ${(level * 100).toFixed(2).replace(/\.?0+$/, '')} %)` : ` at ${JOINT_LEVEL * 100} %`;
  return `Δ vs ${anchor}: the change between the runs of the row's paired Δ against ${anchor}, the same code in both runs`
    + `${others.length ? ` (in a bench ${anchor} did not run, against ${others.join(' or ')}, as the row's note says)` : ''}; `
    + `± from both runs' intervals of that Δ (rounds and processes) and the host's change of speed (${HOST_FOLLOW} × ${anchor}'s own change, as ratios follow the host)${together}; ~ : the interval includes 0, a real change is one it excludes`;
}
