// Simulated network latency between the drivers and the server: a proxy process per run.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { usageError, setupError } from './errors.js';
import { deadline } from './timers.js';

const PROXY = fileURLToPath(new URL('./proxy-process.js', import.meta.url));

// Named profiles: added round-trip time in milliseconds.
export const NETWORK_PROFILES = Object.freeze({
  loopback: 0, // no proxy
  lan: 0.5, // a switched data-centre or office LAN
  wan: 20, // another region / the far side of a VPN
});

/** --rtt and --network into { name, rttMs }; rtt 0 means no proxy. */
export function resolveNetwork({ rtt, network } = {}) {
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

/**
 * Start a proxy in front of `target` adding `rttMs` of round trip (half each way).
 * Returns { host, port, pid, stop(), cpuSeconds() }.
 */
export async function startProxy(target, rttMs) {
  const child = spawn(process.execPath, [PROXY, '127.0.0.1', target.host ?? '-', String(target.port ?? '-'), target.socket ?? '-', String(rttMs / 2)],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const ready = new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) resolve(JSON.parse(line));
    });
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
  const setOneWay = (ms) => child.stdin.write(`${JSON.stringify({ oneWayMs: ms })}\n`);
  return { host: '127.0.0.1', port, pid: child.pid, stop, setOneWay, cpuSeconds: () => readCpuSeconds(child.pid) };
}

/** Median round trip of `DO 1` on a connection, in ms. */
async function medianRoundTrip(conn, count = 200) {
  const xs = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await conn.query('DO 1');
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)];
}

/**
 * Start a proxy adding `rttMs` and measure it: the proxy's own hop cost (with no delay) is
 * subtracted from the delay it adds, the added round trip is measured against a direct
 * connection, the delay corrected once for the timer's overshoot, and measured again. Returns { proxy, network: { rttMs, hopMs, measuredAddedMs, oneWayMs } }.
 */
export async function startMeasuredProxy(target, rttMs, connectProbe) {
  const proxy = await startProxy(target, 0);
  try {
    const direct = await connectProbe(target);
    const through = await connectProbe({ ...target, host: proxy.host, port: proxy.port, socket: undefined });
    try {
      await medianRoundTrip(through, 50);
      const baseMs = await medianRoundTrip(direct);
      const hopMs = Math.max(0, (await medianRoundTrip(through)) - baseMs);
      let oneWayMs = Math.max(0, (rttMs - hopMs) / 2);
      const addedWith = async (ms) => {
        proxy.setOneWay(ms);
        await medianRoundTrip(through, 20); // data in flight with the old delay is gone
        return (await medianRoundTrip(through)) - (await medianRoundTrip(direct));
      };
      let measuredAddedMs = await addedWith(oneWayMs);
      // One correction for the timer's overshoot, which grows with the delay.
      oneWayMs = Math.max(0, oneWayMs + (rttMs - measuredAddedMs) / 2);
      measuredAddedMs = await addedWith(oneWayMs);
      const r3 = (x) => Math.round(x * 1000) / 1000;
      return { proxy, network: { rttMs, hopMs: r3(hopMs), oneWayMs: r3(oneWayMs), measuredAddedMs: r3(measuredAddedMs) } };
    } finally {
      await Promise.all([direct.close(), through.close()]);
    }
  } catch (err) {
    await proxy.stop();
    throw err;
  }
}

/** User+system CPU seconds a process has used (Linux /proc), or null. */
export async function readCpuSeconds(pid) {
  try {
    const { readFileSync } = await import('node:fs');
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}
