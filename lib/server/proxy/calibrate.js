// The hold that makes --rtt the round trip a client sees: the path costs more than its holds, so a probe
// process (probe.js) times `DO 1` with and without it and the hold is tuned on the trimmed means
// (docs/network.md, 'Tuned so that a client sees the round trip asked for').
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { within } from '../../common/timers.js';
import { median, round3, trimmedMean } from '../../common/stats.js';
import { eachLine } from './lines.js';

const PROBE = fileURLToPath(new URL('./probe.js', import.meta.url));
export const CALIBRATE_MAX_RTT_MS = 50; // above this the path's cost (< 0.5 %) is not worth probing for
const MAX_STEPS = 5;
const BLOCKS = 6;
const PROBE_MS = 500; // time spent through the proxy per measurement, about: a shorter one moves between probes
/** How close to the asked RTT what the client sees added must come for the tuning to stop: ms. */
export const tolerance = (rttMs) => Math.max(0.01 * rttMs, 0.003);

export function probeSize(rttMs) {
  const total = Math.min(1200, Math.max(48, Math.round(PROBE_MS / Math.max(rttMs + 0.1, 0.1))));
  return { blocks: BLOCKS, perBlock: Math.ceil(total / BLOCKS) };
}

/** `heldOneWayMs` instead of `proxied`: the second connection is held in the probe itself (--rtt-via process). */
export async function startProbe({ direct, proxied, heldOneWayMs, place }) {
  const child = spawn(process.execPath, [PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.on('error', () => {});
  process.once('exit', () => { try { child.kill('SIGKILL'); } catch { /* gone */ } });
  place?.(child.pid);
  const waiters = [];
  eachLine(child.stdout, (line) => waiters.shift()?.(JSON.parse(line)));
  child.once('exit', () => { for (const w of waiters.splice(0)) w({ error: 'the probe process exited' }); });
  const ask = (msg, ms) => {
    const answer = new Promise((resolve) => waiters.push(resolve));
    child.stdin.write(`${JSON.stringify(msg)}\n`);
    return within(answer, ms, { error: `the probe did not answer within ${ms / 1000} s` });
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.stdin.end();
    await within(gone, 2000);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const hello = await ask(proxied ? { direct, proxied } : { direct, heldOneWayMs }, 15000);
  if (hello.error) {
    await stop();
    throw new Error(`latency probe: ${hello.error}`);
  }
  const measure = async (size, rttMs) => {
    const r = await ask(size, 30000 + 4 * size.blocks * size.perBlock * (rttMs + 1));
    if (r.error) throw new Error(`latency probe: ${r.error}`);
    const loopbackP50Us = median(r.directUs);
    const proxiedP50Us = median(r.proxiedUs);
    const addedMeanMs = round3((trimmedMean(r.proxiedUs) - trimmedMean(r.directUs)) / 1000);
    return { loopbackP50Us: Math.round(loopbackP50Us * 10) / 10, proxiedP50Us: Math.round(proxiedP50Us * 10) / 10, addedMs: round3((proxiedP50Us - loopbackP50Us) / 1000), addedMeanMs, ops: r.proxiedUs.length };
  };
  const setHold = async (ms) => {
    const r = await ask({ hold: ms }, 5000);
    if (r.error) throw new Error(`latency probe: ${r.error}`);
    return r.hold;
  };
  return { measure, setHold, stop };
}

/** Tuned on the trimmed means ('mean') so throughput follows 1 / (RTT + loopback), or at the median ('p50'); the closest step kept. */
export async function calibrateProxy(proxy, probe, rttMs, { on = 'mean' } = {}) {
  const seen = (m) => (on === 'mean' ? m.addedMeanMs : m.addedMs);
  const size = probeSize(rttMs);
  const steps = [];
  let hold = rttMs / 2;
  for (let i = 0; i < MAX_STEPS; i++) {
    hold = Math.round(hold * 1e4) / 1e4; // to 0.1 µs: the hold set is the hold recorded
    await proxy.setHold(hold);
    const m = await probe.measure(size, rttMs);
    steps.push({ holdMs: hold, ...m });
    if (Math.abs(seen(m) - rttMs) <= tolerance(rttMs)) break;
    const pathCost = seen(m) - 2 * hold;
    hold = Math.min(rttMs, Math.max(0, (rttMs - pathCost) / 2));
  }
  const best = steps.reduce((a, b) => (Math.abs(seen(b) - rttMs) < Math.abs(seen(a) - rttMs) ? b : a));
  await proxy.setHold(best.holdMs); // also starts the run's own record of holds
  const { holdMs, ...observed } = best;
  return {
    holdMs,
    calibratedOn: on,
    pathCostMs: round3(seen(observed) - 2 * holdMs),
    observed,
    steps,
    within: Math.abs(seen(observed) - rttMs) <= tolerance(rttMs),
  };
}
