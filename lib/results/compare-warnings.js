// What a comparison warns of: the conditions that make two runs incomparable, the host's own shift of
// speed (from the unchanged drivers, and from the server's CPU per operation), and what the anchor, or
// the lack of one, means. Pure: results objects in, lines out (compare.js gathers them).
import { logRatioPct, median } from '../common/stats.js';
import { fmtSignedPct } from '../common/format-numbers.js';
import { unchangedDrivers } from './compare-anchor.js';

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

function requestedNetwork(network) {
  if (typeof network?.rttMs !== 'number') return network;
  if (network.rttMs === 0) return 'loopback';
  // Results from before --rtt-via went through the proxy.
  return `+${network.rttMs} ms RTT ${network.via === 'process' ? 'held in the driver processes' : 'through a proxy'}`;
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
  // One process per row carries that process's own speed into every figure (docs/measuring.md, "Processes differ").
  { what: 'processes per driver', get: (r) => r.settings?.processes ?? (r.schema >= 2 ? 1 : undefined), optional: true },
  { what: 'network', get: (r) => requestedNetwork(r.settings?.network), optional: true },
  // Older runs' warm-ups were a fixed length, and a run's first benches began on cold code.
  { what: 'warm-up', get: (r) => (r.settings ? (r.settings.warmupSettles ? 'until each process is up to speed' : 'as given') : undefined), optional: true },
];

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

/** Unchanged drivers moving together by this much (%) is reported as the host's own shift. */
export const HOST_SHIFT_WARN_PCT = 5;

// How a host shift reads in each mode: with an anchor it is in the ops/s column only.
const shiftConsequence = (anchored) => (anchored
  ? 'the ops/s Δ column carries that shift; the Δ against the unchanged driver cancels it'
  : 'changes of that size may be the host, not the drivers');

/** Unchanged drivers moving together (their median, which one driver that did change cannot fake): the host. */
export function hostShift(geomean, unchanged, anchored) {
  const steady = geomean.filter((g) => unchanged.includes(g.driver) && g.benches > 0);
  const hostShiftPct = steady.length >= 2 ? median(steady.map((g) => g.opsDeltaPct)) : null;
  const warning = hostShiftPct !== null && Math.abs(hostShiftPct) >= HOST_SHIFT_WARN_PCT
    ? `the drivers whose code did not change (${steady.map((g) => g.driver).join(', ')}) moved by a median of `
      + `${fmtSignedPct(hostShiftPct)} (geometric means per driver): the host itself ran at a different speed; ${shiftConsequence(anchored)}`
    : null;
  return { hostShiftPct, warning };
}

/**
 * The host's change of speed as the embedded server saw it, doing the same work for the same statement
 * (docs/comparing.md, "Comparing runs"): unlike hostShift, it needs no unchanged driver.
 */
export function serverCpuShift(rows, anchored) {
  const logs = rows.filter((r) => !r.protocolChanged && r.base.serverCpuUsPerOp > 0 && r.new.serverCpuUsPerOp > 0)
    .map((r) => Math.log(r.new.serverCpuUsPerOp / r.base.serverCpuUsPerOp));
  const serverCpuShiftPct = logs.length > 0 ? logRatioPct(median(logs)) : null;
  const warning = serverCpuShiftPct !== null && Math.abs(serverCpuShiftPct) >= HOST_SHIFT_WARN_PCT
    ? `the server needed ${fmtSignedPct(serverCpuShiftPct)} CPU per operation for the same statements (median of ${logs.length} rows): `
      + `the host ran ${serverCpuShiftPct > 0 ? 'slower' : 'faster'} in the new run, and ops/s changes of about that size (in the other direction) may be the host; ${shiftConsequence(anchored)}`
    : null;
  return { serverCpuShiftPct, warning };
}

export function anchorWarnings(base, next, { anchor, anchors, rows, unanchored }) {
  const lines = [];
  if (anchor && anchor !== 'none' && !unchangedDrivers(base, next).includes(anchor)) {
    lines.push(`the anchor ${anchor} is not the same code in both runs (version, options, or a checkout or adapter file that can change in place): its own change lands in every Δ`);
  }
  const judged = rows.some((r) => r.judged !== 'absolute');
  if (!judged && rows.length) {
    const why = anchor === 'none' ? '--anchor none' : 'no driver ran the same code in both runs';
    lines.push(`${why}: every change is absolute, exposed to the host's speed (identical runs on a shared host differ by tens of per cent), and nothing is judged — `
      + 'to compare two releases, measure them as rows of one run (--drivers mysql2@A,mysql2@B)');
  } else if (unanchored.length && anchors.length) {
    lines.push(`${unanchored.join(', ')}: no unchanged driver (${anchors.join(', ')}) measured in both runs, so ${unanchored.length > 1 ? 'their' : 'its'} rows are not judged`);
  }
  return lines;
}
