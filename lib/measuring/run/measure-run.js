// The measuring stage of one run: the loop (loop.js) with the wake mode on, the benches' probes and the
// harness's own health, returned as values. Nothing here prints: lines go through `progress`.
import { EXIT } from '../../common/errors.js';
import { DriverProcesses } from '../processes/driver-processes.js';
import { runProbes } from './catalogue.js';
import { startHealthMonitor } from '../host/health.js';
import { hostLoadBetween, readCpuCounters } from '../host/host-load.js';
import { describePlacement, pinMainThread, pinThreads } from '../../common/placement.js';
import { measureLoop } from './loop.js';
import { stoppedWith } from '../../common/stopped.js';
import { sleep } from '../../common/timers.js';
import { withWake } from '../host/wake.js';
import { PRECISION_BATCH } from './schedule.js';
import { describeWindowLength } from '../figures/row-figures.js';

export function startDriverProcesses({ target, context, placement }) {
  const placedThreads = new Map();
  const place = (pid) => {
    if (!placedThreads.has(pid)) placedThreads.set(pid, new Set());
    pinThreads(pid, placement.client, placement.harness, placedThreads.get(pid));
  };
  // A process warming up beside another runs on the harness's CPU(s), where nothing is measured.
  const apart = placement.client && placement.harness && placement.harness !== placement.client;
  const aside = apart ? { away: (pid) => pinMainThread(pid, placement.harness), back: (pid) => pinMainThread(pid, placement.client) } : null;
  return new DriverProcesses({ target, context, place, aside });
}

async function watchHealth(admin) {
  const threadsConnected = async () => {
    try {
      const [row] = await admin.query("SHOW GLOBAL STATUS LIKE 'Threads_connected'");
      return Number(row.Value);
    } catch {
      return null;
    }
  };
  const threadsConnectedBefore = await threadsConnected();
  const hostCounters = readCpuCounters();
  const memory = startHealthMonitor();
  return {
    memory,
    threadsConnected,
    // Also when interrupted: partial results keep their memory timeline.
    end(extra) {
      const { timeline, ...summary } = memory.stop();
      return { health: { ...summary, threadsConnectedBefore, ...extra, timeline }, host: hostLoadBetween(hostCounters, readCpuCounters()) };
    },
  };
}

// A replayed row runs V8 deterministically (same-program.js).
const describeCompiling = (settings) => (settings.replay?.warmupOps
  ? `V8 deterministic, warm-ups of ${settings.replay.warmupOps.toLocaleString('en-US')} operations${settings.replay.warmupCollectionAfterOps ? ` (a full collection after ${settings.replay.warmupCollectionAfterOps.toLocaleString('en-US')})` : ''}, windows in operations sized side by side and again from the rounds, address layout ${settings.replay.addressLayout}, glibc malloc thresholds fixed`
  : `jit ${settings.jit}`);

/**
 * Resolves to { benches, probes, health, host, complete, stoppedBy, exitCode }, also when stopped by a
 * signal or a lost server; any other error is thrown with the benches so far (err.partial).
 */
export async function measureRun({ benches, drivers, settings, wake, context, stage, processes, signals, progress }) {
  const { admin, alive: serverAlive, serverPid } = stage.session;
  const health = await watchHealth(admin);
  const round = (bench, r, rounds) => {
    if (r === 0) health.memory.setCell(bench.name);
    progress.round(bench, r, rounds);
  };
  progress.log(describeMeasuring({ benches, drivers, settings, stage }));
  const signal = signals.signal;
  const measured = [];
  const run = { benches, drivers, processes, admin, context, settings, serverPid, serverAlive, signal, progress: { round, benchDone: progress.benchDone } };
  try {
    const probes = await withWake(wake, async () => {
      for await (const entry of measureLoop(run)) measured.push(entry);
      return runProbes(benches, { drivers, target: stage.target, admin, context, settings, signal, log: (l) => progress.log(l) });
    });
    await sleep(300); // closed connections take a moment to leave the server's count
    return { benches: measured, probes, ...health.end({ threadsConnectedAfter: await health.threadsConnected() }), complete: true, stoppedBy: null, exitCode: EXIT.OK };
  } catch (err) {
    return stoppedWith(err, signal, { benches: measured, probes: {}, ...health.end({}) });
  }
}

function describeMeasuring({ benches, drivers, settings, stage }) {
  const own = settings.processes > 1 ? `${settings.processes} processes of its own, taking the rounds in turn` : 'a process of its own';
  return `measuring ${benches.length} bench(es) × ${drivers.length} driver(s), each driver in ${own}: `
    + `${settings.rounds} rounds of interleaved windows ${describeWindowLength(settings)}`
    + `${settings.precision ? `, more in batches of ${PRECISION_BATCH} until every Δ is within ±${settings.precision} % (at most ${settings.maxRounds})` : ''}, `
    + `${describePlacement(stage.placement)}, wake ${settings.wake}, ${describeCompiling(settings)}`;
}
