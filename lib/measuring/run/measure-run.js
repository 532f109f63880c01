// The measuring stage of one run: the driver processes, the loop (loop.js) with the wake mode on, the
// benches' probes, and the harness's own health over it, returned as values. Nothing here prints:
// progress lines go through the `progress` it is given.
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

/**
 * The run's driver processes (a row may use several), each placed as the stage's placement says (the
 * same for every driver), handed the benches' `context` (with their options).
 */
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

/** The harness's own health over the run: its memory, connections left open on the server, the host's steal. */
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
    /** { health, host } when the levels end, also when they are interrupted: partial results keep their memory timeline. */
    end(extra) {
      const { timeline, ...summary } = memory.stop();
      // host: what the hypervisor took while this run measured (steal) and the disk waits (iowait).
      return { health: { ...summary, threadsConnectedBefore, ...extra, timeline }, host: hostLoadBetween(hostCounters, readCpuCounters()) };
    },
  };
}

/** How the driver processes' code is compiled: a replayed row runs V8 deterministically (same-program.js). */
const describeCompiling = (settings) => (settings.replay?.warmupOps
  ? `V8 deterministic, warm-ups of ${settings.replay.warmupOps.toLocaleString('en-US')} operations${settings.replay.warmupCollectionAfterOps ? ` (a full collection after ${settings.replay.warmupCollectionAfterOps.toLocaleString('en-US')})` : ''}, windows in operations sized side by side and again from the rounds, address layout ${settings.replay.addressLayout}, glibc malloc thresholds fixed`
  : `jit ${settings.jit}`);

/**
 * Every bench measured on every driver (measureLoop), with the wake mode `wake` on ({ mode, spinners }),
 * then the benches' probes. `context`: what the benches are handed (the session's, with their options).
 * Resolves to { benches, probes, health, host, complete, stoppedBy, exitCode }: stopped by an
 * interruption (Ctrl-C) or a lost server with the benches finished so far. Any other error is thrown
 * with them (err.partial).
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

/** The run's opening line: what is measured, how many rounds of what windows, where, and how V8 compiles. */
function describeMeasuring({ benches, drivers, settings, stage }) {
  const own = settings.processes > 1 ? `${settings.processes} processes of its own, taking the rounds in turn` : 'a process of its own';
  return `measuring ${benches.length} bench(es) × ${drivers.length} driver(s), each driver in ${own}: `
    + `${settings.rounds} rounds of interleaved windows ${describeWindowLength(settings)}`
    + `${settings.precision ? `, more in batches of ${PRECISION_BATCH} until every Δ is within ±${settings.precision} % (at most ${settings.maxRounds})` : ''}, `
    + `${describePlacement(stage.placement)}, wake ${settings.wake}, ${describeCompiling(settings)}`;
}
