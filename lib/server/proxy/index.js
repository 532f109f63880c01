// Simulated network latency between the drivers and the server: a proxy process per run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { usageError, setupError } from '../../common/errors.js';
import { deadline, within } from '../../common/timers.js';
import { round3 } from '../../common/stats.js';
import { tolerance } from './calibrate.js';
import { eachLine } from './lines.js';

const PROXY = fileURLToPath(new URL('./process.js', import.meta.url));

// Named profiles: added round-trip time in milliseconds.
export const NETWORK_PROFILES = Object.freeze({
  loopback: 0, // no proxy
  lan: 0.5, // a switched data-centre or office LAN
  wan: 20, // another region / the far side of a VPN
});

export const RTT_VIAS = ['process', 'proxy'];

/** --rtt, --network and --rtt-via into { name, rttMs, via } (via only with an RTT); rtt 0 means loopback. */
export function resolveNetwork({ rtt, network, via } = {}) {
  const resolved = resolveRtt({ rtt, network });
  if (via !== undefined && !RTT_VIAS.includes(via)) throw usageError(`--rtt-via must be one of ${RTT_VIAS.join(', ')}, not '${via}'`);
  return resolved.rttMs > 0 ? { ...resolved, via: via ?? 'process' } : resolved;
}

function resolveRtt({ rtt, network }) {
  if (rtt !== undefined && network !== undefined) throw usageError('give --rtt or --network, not both');
  if (network !== undefined) {
    if (!(network in NETWORK_PROFILES)) {
      throw usageError(`unknown network profile '${network}'`,
        `profiles: ${Object.entries(NETWORK_PROFILES).map(([k, v]) => `${k} (${v} ms)`).join(', ')}`);
    }
    return { name: network, rttMs: NETWORK_PROFILES[network] };
  }
  if (rtt === undefined) return { name: 'loopback', rttMs: 0 };
  const n = Number(rtt);
  if (!Number.isFinite(n) || n < 0 || n > 10000) throw usageError(`--rtt must be a number of milliseconds from 0 to 10000, not '${rtt}'`);
  return { name: n === 0 ? 'loopback' : `rtt ${n} ms`, rttMs: n };
}

// report() covers the time since the last setHold(), which holds chunks arriving from then on. In sleep
// mode the proxy has an alarm thread (alarm.js): pin all of pid's threads (taskset -a).
export async function startProxy(target, rttMs, { waits = 'sleep' } = {}) {
  const child = spawn(process.execPath, [PROXY, '127.0.0.1', target.host ?? '-', String(target.port ?? '-'), target.socket ?? '-', String(rttMs / 2), waits],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readJsonLines(child.stdout);
  child.stdin.on('error', () => {}); // a proxy that died: stop() and report() see it from its exit code
  const ready = new Promise((resolve, reject) => {
    lines.next = resolve;
    child.once('error', reject);
    child.once('exit', (code) => reject(setupError(`the latency proxy exited while starting (code ${code})`, 'run with --debug')));
  });
  const { port } = await deadline(ready, 10000, () => setupError('the latency proxy did not start within 10 s', 'try again'));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.stdin.end();
    child.kill('SIGTERM');
    await gone;
  };
  process.once('exit', () => { try { child.kill('SIGKILL'); } catch { /* gone */ } });
  let asking = Promise.resolve();
  /** One command line, its one answer line (commands are sent one at a time); {} if the proxy is gone or silent. */
  const ask = (msg) => {
    const answer = asking.then(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return {};
      const line = new Promise((resolve) => { lines.next = resolve; });
      child.stdin.write(`${JSON.stringify(msg)}\n`);
      return within(line, 5000, {});
    });
    asking = answer;
    return answer;
  };
  const report = async () => (await ask({ command: 'report' })).report ?? null;
  const setHold = async (oneWayMs) => (await ask({ command: 'hold', oneWayMs })).hold ?? null;
  return { host: '127.0.0.1', port, pid: child.pid, waits, stop, report, setHold };
}

function readJsonLines(stream) {
  const reader = { next: null };
  eachLine(stream, (line) => {
    const take = reader.next;
    reader.next = null;
    take?.(JSON.parse(line));
  });
  return reader;
}

const ms3 = (x) => (x === null || x === undefined ? null : round3(x));

/** The proxy's holds only, not what the client sees (calibration); `early` is 0 unless the proxy is broken. */
export function summarizeAddedDelay(report) {
  if (!report) return { measured: false };
  const { toServer, toClient } = report;
  const sum = (a, b) => (a === null || b === null ? null : ms3(a + b));
  return {
    addedRttP50Ms: sum(toServer.p50Ms, toClient.p50Ms),
    addedRttP99Ms: sum(toServer.p99Ms, toClient.p99Ms),
    holds: { toServer, toClient },
    holdMs: report.holdMs,
    early: toServer.early + toClient.early,
    proxyCpuSeconds: report.cpuSeconds,
    proxySeconds: report.uptimeSeconds,
  };
}

const cpuSet = (list) => (list ? new Set(String(list).split(',').flatMap((part) => {
  const [a, b = a] = part.split('-').map(Number);
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
})) : null);

/** Spinning on the harness's CPUs less the drivers' and the server's when any are left, else sleeping beside one. */
export function proxyPlacement(placement) {
  const taken = new Set([...(cpuSet(placement.client) ?? []), ...(cpuSet(placement.server) ?? [])]);
  const own = [...(cpuSet(placement.harness) ?? [])].filter((c) => !taken.has(c));
  if (own.length && placement.client) {
    const cpus = own.join(',');
    return { cpus, waits: 'spin', note: `on CPU ${cpus}, its own: it spins while it holds chunks` };
  }
  const cpus = placement.harness ?? placement.server ?? placement.client ?? null;
  return { cpus, waits: 'sleep', note: cpus === null ? 'placed by the scheduler: it sleeps between chunks' : `on CPU ${cpus}, shared with the client or the server: it sleeps between chunks` };
}

const us = (x) => `${Math.round(x)} µs`;
const medians = (o) => `DO 1 with the round trip p50 ${us(o.proxiedP50Us)} − straight to the server p50 ${us(o.loopbackP50Us)}`;
/** What the probe saw added: on average when the hold was tuned on the means (with the medians beside), else at the median. */
const observedText = (o, on) => (on === 'mean' && o.addedMeanMs !== undefined
  ? `+${o.addedMeanMs} ms on average (p50 +${o.addedMs} ms: ${medians(o)})`
  : `+${o.addedMs} ms (${medians(o)})`);

export function describeCalibration(rttMs, c) {
  if (!c?.calibrated) return `network: ${rttMs / 2} ms held each way, not tuned (${c?.why ?? 'no probe'}): a client sees the RTT plus the path's own cost`;
  return `network: probed from the drivers' CPU, a client sees ${observedText(c.observed, c.calibratedOn)} with ${c.holdMs} ms held each way; `
    + `the path's own cost, ${c.pathCostMs} ms per round trip, is taken off the holds${c.within ? '' : ` (NOT within ±${round3(tolerance(rttMs))} ms of the ${rttMs} ms asked after ${c.steps.length} tries: the closest kept)`}`;
}

/** The progress line after a run whose driver processes held their own connections (--rtt-via process). */
export function describeHeld(network) {
  const c = network.calibration;
  const seen = !c?.calibrated ? '' : `; a client saw ${observedText(c.observed, c.calibratedOn)} before the run${c.after?.addedMs !== undefined ? `, ${observedText(c.after, c.calibratedOn)} after` : ''}`;
  return `network: +${network.rttMs} ms RTT requested${seen}; held in each driver process ${network.holdMs} ms each way`;
}

/** Progress lines, one per bench, on its hold (measuring/driver/held-tuning.js) and what each row's driver saw. */
export function describeRowHolds(results) {
  const lines = [];
  for (const bench of results?.benches ?? []) {
    const rows = bench.results.filter((r) => r.held);
    if (rows.length === 0) continue;
    const tunedOn = rows.find((r) => r.held.tuned);
    const hold = tunedOn ? `one hold each way for every row, ${tunedOn.held.holdMs} ms, tuned on ${tunedOn.driver}` : `one hold each way for every row, ${rows[0].held.holdMs} ms (not tuned on a driver)`;
    const seen = rows.map(({ driver, held: h }) => (h.skipped ? `${driver} not measured (${h.skipped})`
      : `${driver} +${h.addedMs} ms, ${Math.round(h.loopbackP50Us)} → ${Math.round(h.heldP50Us)} µs`));
    lines.push(`network: ${bench.name}, ${hold}; per round trip each driver saw on average, and its p50 unheld → held: ${seen.join('; ')}`);
  }
  return lines;
}

const holdText = (h) => (h.chunks ? `p50 ${h.p50Ms}, p99 ${h.p99Ms}, shortest ${Math.floor(h.minMs * 1e4) / 1e4} ms` : 'no data');

export function describeAddedDelay(network) {
  if (!network.holds) return `network: +${network.rttMs} ms RTT requested; the latency proxy gave no account of the run`;
  const { toServer, toClient } = network.holds;
  const cpu = network.proxyCpuSeconds === undefined ? ''
    : `; proxy CPU ${network.proxyCpuSeconds} s over ${network.proxySeconds} s (${Math.round((100 * network.proxyCpuSeconds) / network.proxySeconds)} % of a core)`;
  const c = network.calibration;
  const seen = !c?.calibrated ? '' : `; a client saw ${observedText(c.observed, c.calibratedOn)} before the run${c.after?.addedMs !== undefined ? `, ${observedText(c.after, c.calibratedOn)} after` : ''}`;
  return `network: +${network.rttMs} ms RTT requested${seen}; the proxy held (per chunk, both directions' holds summed): `
    + `p50 ${network.addedRttP50Ms} ms, p99 ${network.addedRttP99Ms} ms — client→server ${holdText(toServer)}; `
    + `server→client ${holdText(toClient)}${network.early ? `; ${network.early} chunk(s) released EARLY` : ''}${cpu}`;
}
