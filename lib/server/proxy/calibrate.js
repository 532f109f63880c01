// What the latency proxy adds as the client sees it, and the hold that makes it the round trip asked.
//
// Going through a user-space proxy costs more than its holds: two more socket hops per round trip,
// and wake-ups of CPUs that went idle while a chunk was held (on the project's 2-core VM, about
// 0.1–0.2 ms per round trip, growing with the hold). So the proxy is tuned from the client's side:
// a probe process (probe.js), placed where the drivers run, times `DO 1` straight to the server and
// through the proxy, in interleaved blocks; the difference of the medians is what the client sees
// added. The hold each way is then set to (asked RTT − the path's own cost) / 2, measured again, and
// kept when the client sees the asked RTT within the tolerance. The proxy still never releases a chunk
// before its hold; the hold is what was found to give the client the asked round trip.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { within } from '../../measuring/timers.js';
import { round3 } from '../../measuring/stats.js';

const PROBE = fileURLToPath(new URL('./probe.js', import.meta.url));
export const CALIBRATE_MAX_RTT_MS = 50; // above this the path's cost (< 0.5 %) is not worth probing for
const MAX_STEPS = 4;
const BLOCKS = 6;
const PROBE_MS = 500; // time spent through the proxy per measurement, about (250 ms moved ±40-80 µs between probes)
/** How close to the asked RTT the client's added p50 must come for the tuning to stop: ms. */
export const tolerance = (rttMs) => Math.max(0.02 * rttMs, 0.01);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Operations per block of a measurement at this RTT: about PROBE_MS through the proxy in all. */
export function probeSize(rttMs) {
  const total = Math.min(400, Math.max(48, Math.round(PROBE_MS / Math.max(rttMs + 0.1, 0.1))));
  return { blocks: BLOCKS, perBlock: Math.ceil(total / BLOCKS) };
}

/**
 * Start a probe process: `direct` and `proxied` are connection targets; `place(pid)` pins it where
 * the drivers run. Returns { measure(size) -> { loopbackP50Us, proxiedP50Us, addedMs, ops }, stop() }.
 */
export async function startProbe({ direct, proxied, place }) {
  const child = spawn(process.execPath, [PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.on('error', () => {});
  process.once('exit', () => { try { child.kill('SIGKILL'); } catch { /* gone */ } });
  place?.(child.pid);
  const waiters = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      waiters.shift()?.(JSON.parse(line));
    }
  });
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
  const hello = await ask({ direct, proxied }, 15000);
  if (hello.error) {
    await stop();
    throw new Error(`latency probe: ${hello.error}`);
  }
  const measure = async (size, rttMs) => {
    const r = await ask(size, 30000 + 4 * size.blocks * size.perBlock * (rttMs + 1));
    if (r.error) throw new Error(`latency probe: ${r.error}`);
    const loopbackP50Us = median(r.directUs);
    const proxiedP50Us = median(r.proxiedUs);
    return { loopbackP50Us: Math.round(loopbackP50Us * 10) / 10, proxiedP50Us: Math.round(proxiedP50Us * 10) / 10, addedMs: round3((proxiedP50Us - loopbackP50Us) / 1000), ops: r.proxiedUs.length };
  };
  return { measure, stop };
}

/**
 * Tune `proxy`'s hold so that the probe's client sees `rttMs` added at the median. Returns
 * { holdMs, pathCostMs, observed, steps, within } where observed is the probe's last measurement at the
 * kept hold ({ loopbackP50Us, proxiedP50Us, addedMs, ops }), pathCostMs what the client saw added
 * beyond the holds (observed.addedMs − 2 × holdMs), steps every hold tried with its measurement, and
 * within whether observed.addedMs is within the tolerance of rttMs.
 */
export async function calibrateProxy(proxy, probe, rttMs) {
  const size = probeSize(rttMs);
  const steps = [];
  let hold = rttMs / 2;
  for (let i = 0; i < MAX_STEPS; i++) {
    hold = Math.round(hold * 1e4) / 1e4; // to 0.1 µs: the hold set is the hold recorded
    await proxy.setHold(hold);
    const m = await probe.measure(size, rttMs);
    steps.push({ holdMs: hold, ...m });
    if (Math.abs(m.addedMs - rttMs) <= tolerance(rttMs)) break;
    const pathCost = m.addedMs - 2 * hold;
    hold = Math.min(rttMs, Math.max(0, (rttMs - pathCost) / 2));
  }
  const best = steps.reduce((a, b) => (Math.abs(b.addedMs - rttMs) < Math.abs(a.addedMs - rttMs) ? b : a));
  await proxy.setHold(best.holdMs); // also starts the run's own record of holds
  const { holdMs, ...observed } = best;
  return {
    holdMs,
    pathCostMs: round3(observed.addedMs - 2 * holdMs),
    observed,
    steps,
    within: Math.abs(observed.addedMs - rttMs) <= tolerance(rttMs),
  };
}
