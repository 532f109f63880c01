// The measuring step of one run: the driver processes, the harness's own health over the run, and
// the matrix once per --concurrency level, then the benches' probes (catalogue.js), with the wake
// mode on. Nothing here prints: progress lines go through the `progress` it is given.
import { EXIT } from '../../common/errors.js';
import { DriverProcesses } from '../processes/driver-processes.js';
import { Interrupted, ServerLost } from '../../server/session.js';
import { runCatalogue } from './catalogue.js';
import { startHealthMonitor } from '../host/health.js';
import { hostLoadBetween, readCpuCounters } from '../host/host-load.js';
import { describePlacement, pinMainThread, pinThreads } from '../../common/placement.js';
import { runMatrix } from './runner.js';
import { sleep } from '../../common/timers.js';
import { runWake, withWake } from '../host/wake.js';
import { PRECISION_BATCH } from './schedule.js';
import { describeWindowLength } from '../figures/row-figures.js';

/** The run's driver processes (a row may use several), each placed as the stage's placement says (the same for every driver). */
export function startDriverProcesses({ target, session, placement }) {
  const placedThreads = new Map();
  const place = (pid) => {
    if (!placedThreads.has(pid)) placedThreads.set(pid, new Set());
    pinThreads(pid, placement.client, placement.harness, placedThreads.get(pid));
  };
  // A process warming up beside another runs on the harness's CPU(s), where nothing is measured.
  const apart = placement.client && placement.harness && placement.harness !== placement.client;
  const aside = apart ? { away: (pid) => pinMainThread(pid, placement.harness), back: (pid) => pinMainThread(pid, placement.client) } : null;
  return new DriverProcesses({ target, context: session.context, place, aside });
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
    // Recorded when the matrix ends, also when it is interrupted, so partial results keep their memory timeline.
    record(results, extra) {
      const { timeline, ...summary } = memory.stop();
      results.health = { ...summary, threadsConnectedBefore, ...extra, timeline };
      // What the hypervisor took while this run measured (steal) and the disk waits (iowait).
      results.host = hostLoadBetween(hostCounters, readCpuCounters());
    },
  };
}

/** The matrix at every level, then the probes, with the wake mode on. */
function measureAll({ benches, drivers, opts, settings, results, stage, processes, signals, progress, log }) {
  const { session, target } = stage;
  const { admin, context } = session;
  return withWake(runWake(opts), () => runCatalogue({
    opts, settings, results, benches, drivers, admin, target, context, signal: signals.signal, log,
  }, (levelSettings) => runMatrix({
    benches, drivers, processes, admin, context, results,
    // `time` is the measured seconds per bench and driver; each of its `rounds` windows, windowS.
    settings: { ...levelSettings, windowS: levelSettings.time / levelSettings.rounds },
    signal: signals.signal,
    progress,
    serverAlive: session.alive,
    serverPid: session.serverPid,
  })));
}

/** How the driver processes' code is compiled: a replayed row runs V8 deterministically (same-program.js). */
const describeCompiling = (settings) => (settings.replay?.warmupOps
  ? `V8 deterministic, warm-ups of ${settings.replay.warmupOps.toLocaleString('en-US')} operations${settings.replay.warmupCollectionAfterOps ? ` (a full collection after ${settings.replay.warmupCollectionAfterOps.toLocaleString('en-US')})` : ''}, windows in operations sized side by side and again from the rounds, address layout ${settings.replay.addressLayout}, glibc malloc thresholds fixed`
  : `jit ${settings.jit}`);

/**
 * Measure every bench on every driver into `results`. Resolves to the exit code so far: OK, or that
 * of an interruption (Ctrl-C) or a lost server, which end the run with the rows measured so far.
 * Any other error is thrown.
 */
export async function measureRun({ benches, drivers, opts, settings, results, stage, processes, signals, progress }) {
  const health = await watchHealth(stage.session.admin);
  const benchProgress = {
    round(bench, r, rounds) {
      if (r === 0) health.memory.setCell(bench.name);
      progress.round(bench, r, rounds);
    },
    benchDone: progress.benchDone,
  };
  const own = settings.processes > 1 ? `${settings.processes} processes of its own, taking the rounds in turn` : 'a process of its own';
  progress.log(`measuring ${benches.length} bench(es) × ${drivers.length} driver(s), each driver in ${own}: `
    + `${settings.rounds} rounds of interleaved windows ${describeWindowLength(settings)}`
    + `${settings.precision ? `, more in batches of ${PRECISION_BATCH} until every Δ is within ±${settings.precision} % (at most ${settings.maxRounds})` : ''}, `
    + `${describePlacement(stage.placement)}, wake ${settings.wake}, ${describeCompiling(settings)}`);
  try {
    await measureAll({ benches, drivers, opts, settings, results, stage, processes, signals, progress: benchProgress, log: (l) => progress.log(l) });
    results.complete = true;
    await sleep(300); // closed connections take a moment to leave the server's count
    health.record(results, { threadsConnectedAfter: await health.threadsConnected() });
    return EXIT.OK;
  } catch (err) {
    health.record(results, {});
    const reason = signals.signal.aborted ? signals.signal.reason : err;
    if (!(reason instanceof Interrupted) && !(reason instanceof ServerLost)) throw reason;
    results.stoppedBy = reason.message;
    return reason instanceof Interrupted ? reason.exitCode : EXIT.ABORTED;
  }
}
