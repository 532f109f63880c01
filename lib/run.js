// One benchmark run, top-down: resolve its settings → open the server → measure → save → render.
// Each step is a call into one stage folder; this file only puts them in order and cleans up (the
// driver processes, the proxy and the server are closed however the run ends). Returns the exit code.
// The command's options are read once, by resolveRun; below here only its frozen plan travels.
import path from 'node:path';
import { EXIT, usageError } from './common/errors.js';
import { nothingRunnable } from './measuring/bench/plan.js';
import { loadDrivers } from './drivers/index.js';
import { resolveRun, settleSettings } from './resolve-run.js';
import { probesFailed } from './measuring/planning/catalogue.js';
import { measureRun, startDriverProcesses } from './measuring/planning/measure-run.js';
import { concurrencyLevels } from './measuring/planning/scaling.js';
import { ratePasses } from './measuring/planning/rate-passes.js';
import { describeBaseline, resolveBaseline } from './results/baseline.js';
import { describeRegressions, regressionsAgainstBaseline } from './results/regressions.js';
import { assertWritableDir, saveResults, startResults } from './results/file.js';
import { historyStepFunctions } from './results/profile-diff.js';
import { createProgress } from './reporting/progress.js';
import { printRun } from './reporting/output.js';
import { renderRun } from './reporting/sections.js';
import { closeStage, openStage } from './server/stage.js';
import { openReplayStage } from './replay/stage.js';
import { countRun, primerOf } from './replay/count.js';
import { counterOf } from './replay/counters/index.js';
import { shardBenches, waitUntil } from './measuring/planning/shards.js';
import { Interrupted, trapSignals } from './common/errors.js';
import { describeDifferences } from './results/repeat.js';

/** The drivers the run measures (a command may add its own rows) and the baseline the Δ column compares against. */
async function chooseDrivers(plan, variant) {
  const { settings } = plan;
  const loaded = await loadDrivers(settings.drivers, { overrideFairness: plan.overrideFairness, reinstall: plan.reinstall });
  // The replay transport patches node:net inside the harness's own kind of process, and instruction
  // counts run that process under Valgrind: neither is built for another runtime's rows (yet).
  const elsewhere = (settings.replay || settings.count) && loaded.find((d) => d.runtime && !d.runtime.harness);
  if (elsewhere) {
    throw usageError(`${settings.count ? '--replay and --count run' : '--replay runs'} on the harness's Node only: ${elsewhere.name} runs on ${elsewhere.runtime.kind} ${elsewhere.runtime.version}`,
      'drop the ~runtime rows (and bun-sql) from this run, or run it without --replay');
  }
  const baseline = resolveBaseline({ explicit: plan.explicitBaseline, specs: settings.drivers, drivers: loaded });
  return { baseline, drivers: variant.prepareDrivers ? variant.prepareDrivers(loaded) : loaded };
}

/** --count: every row counted under Valgrind by the run's counter (replay/count.js); an interruption keeps the rows counted so far. */
async function countAll({ benches, primerBenches, drivers, results, stage, signals, progress, log, out }) {
  const counter = counterOf(results.settings.count);
  log(`counting ${counter.noun}: ${counter.counting(results.settings.count)}`);
  try {
    await countRun({ counter, benches, primerBenches, drivers, results, context: stage.session.context, target: stage.target, signal: signals.signal, progress, smoke: results.settings.mode === 'smoke', out });
    return EXIT.OK;
  } catch (err) {
    const reason = signals.signal.aborted ? signals.signal.reason : err;
    if (!(reason instanceof Interrupted)) throw reason;
    results.stoppedBy = reason.message;
    return reason.exitCode;
  }
}

/**
 * The run's stage opened on `stage` (closed by the caller however the run ends): --replay's sets found
 * or captured, nothing measured reaching a server (a count's primer runs the design benches too, so
 * their sets are captured with the rest); else the server, its placement and network, and each bench's
 * preflight (a --sql file the server cannot prepare stops the run before anything is measured).
 * Returns { benches, primerBenches, learnt: what the settings take from the stage }.
 */
async function openRunStage(stage, { plan, benches, drivers, env, log, signals }) {
  const { replay, count } = plan.settings;
  if (replay) {
    const primer = count ? primerOf(benches) : benches;
    const opened = await openReplayStage(stage, { benches: primer, drivers, flags: plan.connection, cpus: plan.cpus, out: plan.output.out, recapture: plan.recapture, env, log, signals });
    const measured = new Set(benches.map((b) => b.name));
    const primerBenches = opened.benches;
    const learnt = { placement: opened.placement, replay: opened.settings, ...(count ? { count: { primer: primerBenches.map((b) => b.name) } } : {}) };
    return { benches: primerBenches.filter((b) => measured.has(b.name)), primerBenches, learnt };
  }
  // A certificate is made only for a run with a bench that needs TLS.
  const opened = await openStage(stage, { flags: plan.connection, cpus: plan.cpus, env, network: plan.settings.network, log, signals, tls: benches.some((b) => b.requires?.includes('tls')) });
  for (const bench of benches) await bench.preflight?.(stage.session.admin, stage.session.context);
  return { benches, primerBenches: null, learnt: { network: opened.network, placement: opened.placement } };
}

/** --start-at: the shards of a run on one server start measuring together (set-up done, nothing measured yet). */
async function waitForStart(plan, { log, signals }) {
  if (!plan.startAt) return;
  const wait = Math.max(0, Math.round((plan.startAt - Date.now()) / 1000));
  log(wait > 0 ? `waiting ${wait} s, until ${new Date(plan.startAt).toISOString()} (--start-at), to start measuring with the other shards` : `--start-at ${new Date(plan.startAt).toISOString()} has passed: measuring now`);
  await waitUntil(plan.startAt, signals.signal);
}

/** --from: what differs from the original run (Node, CPU, platform, server, a driver's version), a line each. */
function sayDifferences(from, results, { stderr, log }) {
  const differences = describeDifferences(from.results, results, from.file);
  for (const line of differences) stderr.write(`${line}\n`);
  if (!differences.length) log(`--from ${from.file}: same Node, CPU, platform, server and harness as the original run`);
}

/**
 * Rows that failed their check, or a probe that failed, make a finished run exit 1, and so does a row
 * slower than the baseline beyond --threshold (each said in one line); a command may judge again.
 */
function exitCodeOf(results, exitCode, { variant, threshold, stderr }) {
  const failed = results.benches.some((b) => b.results.some((r) => r.status === 'failed')) || probesFailed(results);
  let code = exitCode === EXIT.OK && failed ? EXIT.ROWS_FAILED : exitCode;
  if (threshold !== undefined) {
    const found = regressionsAgainstBaseline(results, threshold);
    const figure = results.settings.count ? counterOf(results.settings.count).unit : results.settings.rate ? 'ops/s, or at a rate p50 latency' : 'ops/s';
    for (const line of describeRegressions(found, { baseline: results.settings.baseline, thresholdPct: threshold, figure })) stderr.write(`${line}\n`);
    if (found.length && code === EXIT.OK) code = EXIT.ROWS_FAILED;
  }
  return variant.exitCode ? variant.exitCode(results, code) : code;
}

/**
 * One run: settings, server, driver processes, the benches, the results file, the report.
 * `variant` lets a command reuse the whole run with its own rows and report (`aa`, `calibrate`):
 * { prepareDrivers(drivers) -> drivers, render(results, { color, latency }) -> text, exitCode(results, code) -> code }.
 * `command`: the command line the results record (redacted); `from`: the results file a --from run repeats ({ file, results }).
 */
export async function runBenchmark({ benches, opts, env, stdout, stderr, signal, variant = {}, command, from }) {
  const plan = await resolveRun(opts, benches);
  const { output } = plan;
  const progress = createProgress(stderr, 0, { quiet: output.quiet });
  const log = (line) => progress.log(line);
  assertWritableDir(output.out);
  const signals = trapSignals(stderr, signal);
  const stage = {};
  let processes = null;
  let results = null;
  let primerBenches = null;
  let exitCode = EXIT.OK;
  try {
    const { baseline, drivers } = await chooseDrivers(plan, variant);
    const idle = nothingRunnable(benches, drivers);
    if (idle) throw usageError(idle, 'add a driver that has it, or choose another bench');
    const { shard } = plan.settings;
    if (shard) {
      benches = shardBenches(benches, drivers, baseline.name, shard);
      log(`shard ${shard.index}/${shard.count}: this run measures its share of the cells, and every bench's reference row`);
    }
    const opened = await openRunStage(stage, { plan, benches, drivers, env, log, signals });
    ({ benches, primerBenches } = opened);
    // A signal while the server started or the sets were captured: stop before measuring (main says so).
    signals.signal.throwIfAborted();
    log(describeBaseline(baseline)); // once the server is up, so a failure to reach it stays one line
    await waitForStart(plan, { log, signals });
    const { learnt } = opened;
    const settings = settleSettings(plan.settings, {
      baseline: baseline.name, ...learnt, ...(plan.startAt ? { startAt: new Date(plan.startAt).toISOString() } : {}), schema: stage.target.database,
    });
    results = startResults({ server: stage.session.serverInfo, drivers, settings, command });
    // Once the server is up (its version is one of them), before anything is measured.
    if (from) sayDifferences(from, results, { stderr, log });
    const levelsProgress = createProgress(stderr, benches.length * concurrencyLevels(settings.concurrency).length * ratePasses(settings.rate), { quiet: output.quiet });
    if (settings.count) {
      exitCode = await countAll({ benches, primerBenches, drivers, results, stage, signals, progress: levelsProgress, log, out: output.out });
    } else {
      // The benches' context, with their options (ctx.options), for the driver processes and the probes alike.
      const context = { ...stage.session.context, options: { ...stage.session.context.options, ...plan.benchOptions } };
      processes = startDriverProcesses({ target: stage.target, context, placement: stage.placement });
      exitCode = await measureRun({ benches, drivers, settings, wake: plan.wake, context, results, stage, processes, signals, progress: levelsProgress });
    }
  } finally {
    await processes?.endAll();
    // With a round-trip time, the network as the run found it, in the results once.
    const network = await closeStage(stage, { results, log });
    if (results && network) results.settings = settleSettings(results.settings, { network });
    signals.dispose();
    // A counted history's steps, each with the functions that moved across it, from the rows' profiles.
    const stepFunctions = results?.complete && results.settings?.count ? historyStepFunctions(results, path.join(output.out, 'results.json')) : null;
    if (stepFunctions) results.stepFunctions = stepFunctions;
    if (results) printRun({ results, file: saveResults(results, output), output, stdout, stderr, render: variant.render ?? renderRun });
  }
  return exitCodeOf(results, exitCode, { variant, threshold: plan.threshold, stderr });
}
