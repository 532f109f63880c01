// The measuring step of one run, as one loop in the run's nouns (docs/glossary.md): for each level,
// for each rate, for each bench (runner.js measureBenches), for each round (coordinator.js
// measureBench), each cell one window; then the benches' probes (catalogue.js). Also the driver
// processes, the harness's own health over the run, and the wake mode, on while it measures.
// Nothing here prints: progress lines go through the `progress` it is given.
import { EXIT } from '../../common/errors.js';
import { DriverProcesses } from '../processes/driver-processes.js';
import { Interrupted, ServerLost } from '../../common/errors.js';
import { runProbes } from './catalogue.js';
import { startHealthMonitor } from '../host/health.js';
import { hostLoadBetween, readCpuCounters } from '../host/host-load.js';
import { describePlacement, pinMainThread, pinThreads } from '../../common/placement.js';
import { measureBenches } from './runner.js';
import { sleep } from '../../common/timers.js';
import { withWake } from '../host/wake.js';
import { concurrencyLevels } from './scaling.js';
import { passRates } from './rate-passes.js';
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
    // Recorded when the levels end, also when they are interrupted, so partial results keep their memory timeline.
    record(results, extra) {
      const { timeline, ...summary } = memory.stop();
      results.health = { ...summary, threadsConnectedBefore, ...extra, timeline };
      // What the hypervisor took while this run measured (steal) and the disk waits (iowait).
      results.host = hostLoadBetween(hostCounters, readCpuCounters());
    },
  };
}

/**
 * The run's loop: for each level, for each rate pass, the benches (each in its rounds); the entries a
 * level adds to results.benches are marked with its concurrency. Then the probes, once.
 */
async function measureLevels({ benches, drivers, settings, context, results, stage, processes, signal, progress, log }) {
  const { admin, alive: serverAlive, serverPid } = stage.session;
  // `time` is the measured seconds per bench and driver; each of its `rounds` windows, windowS.
  const windowS = settings.time / settings.rounds;
  for (const level of concurrencyLevels(settings.concurrency)) {
    const before = results.benches.length;
    try {
      for (const passRate of passRates(settings.rate)) {
        await measureBenches({ benches, drivers, processes, admin, context, settings, level, passRate, windowS, results, signal, progress, serverAlive, serverPid });
      }
    } finally {
      for (const entry of results.benches.slice(before)) entry.concurrency = level;
    }
  }
  await runProbes(benches, results, { drivers, target: stage.target, admin, context, settings, signal, log });
}

/** How the driver processes' code is compiled: a replayed row runs V8 deterministically (same-program.js). */
const describeCompiling = (settings) => (settings.replay?.warmupOps
  ? `V8 deterministic, warm-ups of ${settings.replay.warmupOps.toLocaleString('en-US')} operations${settings.replay.warmupCollectionAfterOps ? ` (a full collection after ${settings.replay.warmupCollectionAfterOps.toLocaleString('en-US')})` : ''}, windows in operations sized side by side and again from the rounds, address layout ${settings.replay.addressLayout}, glibc malloc thresholds fixed`
  : `jit ${settings.jit}`);

/**
 * Measure every bench on every driver into `results`, with the wake mode `wake` on ({ mode, spinners }).
 * `context`: what the benches are handed (the session's, with their options). Resolves to the exit
 * code so far: OK, or that of an interruption (Ctrl-C) or a lost server, which end the run with the
 * rows measured so far. Any other error is thrown.
 */
export async function measureRun({ benches, drivers, settings, wake, context, results, stage, processes, signals, progress }) {
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
    await withWake(wake, () => measureLevels({ benches, drivers, settings, context, results, stage, processes, signal: signals.signal, progress: benchProgress, log: (l) => progress.log(l) }));
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
