// Runs benches through the real machinery (one process per driver, interleaved windows) against a
// test's embedded server, and ends the driver processes afterwards.
import { DriverProcesses } from '../../lib/measuring/processes/driver-processes.js';
import { measureLoop } from '../../lib/measuring/run/loop.js';
import { createResults } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';

// `time` here is each window's (as the results say it); the run measures windows of `windowS`.
export const QUICK = { concurrency: 1, rounds: 2, time: 0.05, lead: 0.02, warmup: 0.05, callTimeoutMs: 10000 };

/** Returns the results object (deltas applied) and the pids of the driver processes it used. */
export async function measureWith({ benches, drivers, target, admin, context, settings = {}, baseline, signal, serverPid }) {
  const s = { ...QUICK, ...settings };
  const results = createResults({
    env: {}, server: context.server, drivers: drivers.map((d) => ({ name: d.name })), settings: { ...s, baseline: baseline ?? drivers[0].name },
  });
  const processes = new DriverProcesses({ target, context });
  const pids = new Set();
  const tracking = { get: async (d, copy) => { const h = await processes.get(d, copy); pids.add(h.pid); return h; } };
  try {
    const loopSettings = { ...s, time: (s.windowS ?? s.time) * s.rounds };
    for await (const entry of measureLoop({ benches, drivers, processes: tracking, admin, context, settings: loopSettings, signal, serverPid, serverAlive: async () => true })) results.benches.push(entry);
  } finally {
    await processes.endAll();
  }
  return { results: applyDeltas(results), pids: [...pids] };
}

/** Is a process still there? */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
