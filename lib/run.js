// One benchmark run, top-down: resolve → open the server → measure → save → render. This file only
// orders the stage folders' calls and closes what they opened however the run ends; the options are
// read once, by resolveRun, and below here only its frozen plan travels.
import path from 'node:path';
import { EXIT, usageError } from './common/errors.js';
import { nothingRunnable } from './measuring/bench/plan.js';
import { loadDrivers } from './drivers/index.js';
import { resolveRun, settleSettings } from './resolve-run.js';
import { probesFailed } from './measuring/run/catalogue.js';
import { measureRun, startDriverProcesses } from './measuring/run/measure-run.js';
import { concurrencyLevels } from './measuring/run/scaling.js';
import { ratePasses } from './measuring/run/rate-passes.js';
import { describeBaseline, resolveBaseline } from './results/baseline.js';
import { describeRegressions, regressionsAgainstBaseline } from './results/regressions.js';
import { assertWritableDir, saveResults, startResults } from './results/file.js';
import { applyDeltas } from './results/deltas.js';
import { historyStepFunctions } from './results/profile-diff.js';
import { createProgress } from './reporting/progress.js';
import { printRun } from './reporting/output.js';
import { renderRun } from './reporting/sections.js';
import { closeStage, dropStage, openStage } from './server/stage.js';
import { openReplayStage } from './replay/stage.js';
import { countRun, primerOf } from './replay/count.js';
import { counterOf } from './replay/counters/index.js';
import { shardBenches, waitUntil } from './measuring/run/shards.js';
import { trapSignals } from './common/errors.js';
import { describeDifferences } from './results/repeat.js';

/** The drivers the run measures (a command may add its own rows) and the baseline the Δ column compares against. */
async function chooseDrivers(plan, variant) {
  const { settings } = plan;
  const loaded = await loadDrivers(settings.drivers, { overrideFairness: plan.overrideFairness, reinstall: plan.reinstall });
  // The harness's Node only: the replay transport patches its node:net, and counts run it under Valgrind.
  const elsewhere = (settings.replay || settings.count) && loaded.find((d) => d.runtime && !d.runtime.harness);
  if (elsewhere) {
    throw usageError(`${settings.count ? '--replay and --count run' : '--replay runs'} on the harness's Node only: ${elsewhere.name} runs on ${elsewhere.runtime.kind} ${elsewhere.runtime.version}`,
      'drop the ~runtime rows (and bun-sql) from this run, or run it without --replay');
  }
  const baseline = resolveBaseline({ explicit: plan.explicitBaseline, specs: settings.drivers, drivers: loaded });
  return { baseline, drivers: variant.prepareDrivers ? variant.prepareDrivers(loaded) : loaded };
}

/** --count: every row counted under Valgrind by the run's counter (replay/count.js): { benches, complete, stoppedBy, exitCode }. */
async function countAll({ benches, primerBenches, drivers, settings, startedAt, stage, signals, progress, log, out }) {
  const counter = counterOf(settings.count);
  log(`counting ${counter.noun}: ${counter.counting(settings.count)}`);
  return countRun({ counter, benches, primerBenches, drivers, settings, startedAt, context: stage.session.context, target: stage.target, signal: signals.signal, progress, smoke: settings.mode === 'smoke', out });
}

/**
 * --replay's sets (a count's primer runs the design benches too, so their sets are captured with the
 * rest), or the server and each bench's preflight, so that a --sql file the server cannot prepare stops
 * the run before anything is measured. The caller closes the stage.
 */
async function openRunStage({ plan, benches, drivers, env, log, signals }) {
  const { replay, count } = plan.settings;
  if (replay) {
    const primer = count ? primerOf(benches) : benches;
    const opened = await openReplayStage({ benches: primer, drivers, flags: plan.connection, cpus: plan.cpus, out: plan.output.out, recapture: plan.recapture, env, log, signals });
    const measured = new Set(benches.map((b) => b.name));
    const primerBenches = opened.benches;
    const learnt = { placement: opened.placement, replay: opened.settings, ...(count ? { count: { primer: primerBenches.map((b) => b.name) } } : {}) };
    return { stage: opened.stage, benches: primerBenches.filter((b) => measured.has(b.name)), primerBenches, learnt };
  }
  const opened = await openStage({ flags: plan.connection, cpus: plan.cpus, env, network: plan.settings.network, log, signals, tls: benches.some((b) => b.requires?.includes('tls')) });
  const { stage } = opened;
  try {
    for (const bench of benches) await bench.preflight?.(stage.session.admin, stage.session.context);
  } catch (err) {
    await dropStage(stage);
    throw err;
  }
  return { stage, benches, primerBenches: null, learnt: { network: opened.network, placement: opened.placement } };
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

/** The run's results: what was measured, the network as the run found it, the paired Δs, a counted history's step functions. */
function resultsOf(started, measured, { network, out }) {
  const { exitCode, probes, ...values } = measured ?? { benches: [] };
  const settings = network ? settleSettings(started.settings, { network }) : started.settings;
  const results = applyDeltas({ ...started, ...values, ...probes, settings, finishedAt: new Date().toISOString() });
  const stepFunctions = results.complete && settings.count ? historyStepFunctions(results, path.join(out, 'results.json')) : null;
  return stepFunctions ? { ...results, stepFunctions } : results;
}

/** The run's settings, settled once the stage is open: the plan's, with the baseline and what the stage learnt. */
const settingsOf = (plan, { learnt, stage }, baseline) => settleSettings(plan.settings, {
  baseline: baseline.name, ...learnt, ...(plan.startAt ? { startAt: new Date(plan.startAt).toISOString() } : {}), schema: stage.target.database,
});

/** The benches this run (or its shard) measures; a run where no driver has any of them is refused. */
function benchesOfRun(plan, benches, { drivers, baseline, log }) {
  const idle = nothingRunnable(benches, drivers);
  if (idle) throw usageError(idle, 'add a driver that has it, or choose another bench');
  const { shard } = plan.settings;
  if (!shard) return benches;
  log(`shard ${shard.index}/${shard.count}: this run measures its share of the cells, and every bench's reference row`);
  return shardBenches(benches, drivers, baseline.name, shard);
}

/** Counted or timed; `hold(processes)` gets the driver processes as soon as they exist, for the caller to end. */
function measureStage({ plan, opened, drivers, started, signals, progress, log, hold }) {
  const { settings } = started;
  const { stage, benches, primerBenches } = opened;
  if (settings.count) return countAll({ benches, primerBenches, drivers, settings, startedAt: started.startedAt, stage, signals, progress, log, out: plan.output.out });
  const context = { ...stage.session.context, options: { ...stage.session.context.options, ...plan.benchOptions } };
  const processes = hold(startDriverProcesses({ target: stage.target, context, placement: stage.placement }));
  return measureRun({ benches, drivers, settings, wake: plan.wake, context, stage, processes, signals, progress });
}

/**
 * `variant` lets a command reuse the whole run with its own rows and report (`aa`, `calibrate`):
 * { prepareDrivers(drivers) -> drivers, render(results, { color, latency }) -> text, exitCode(results, code) -> code }.
 * `command`: the command line recorded (redacted); `from`: { file, results } of the run --from repeats.
 */
export async function runBenchmark({ benches, opts, env, stdout, stderr, signal, variant = {}, command, from }) {
  const plan = await resolveRun(opts, benches);
  const { output } = plan;
  const log = createProgress(stderr, 0, { quiet: output.quiet }).log;
  assertWritableDir(output.out);
  const signals = trapSignals(stderr, signal);
  let [opened, started, measured, processes, results] = [null, null, null, null, null];
  try {
    const { baseline, drivers } = await chooseDrivers(plan, variant);
    opened = await openRunStage({ plan, benches: benchesOfRun(plan, benches, { drivers, baseline, log }), drivers, env, log, signals });
    // A signal while the server started or the sets were captured: stop before measuring (main says so).
    signals.signal.throwIfAborted();
    log(describeBaseline(baseline)); // once the server is up, so a failure to reach it stays one line
    await waitForStart(plan, { log, signals });
    started = startResults({ server: opened.stage.session.serverInfo, drivers, settings: settingsOf(plan, opened, baseline), command });
    if (from) sayDifferences(from, started, { stderr, log }); // once the server's version is known, before anything is measured
    const progress = createProgress(stderr, opened.benches.length * concurrencyLevels(started.settings.concurrency).length * ratePasses(started.settings.rate), { quiet: output.quiet });
    measured = await measureStage({ plan, opened, drivers, started, signals, progress, log, hold: (p) => (processes = p) });
  } catch (err) {
    measured = err?.partial ?? measured; // an unforeseen error still saves the rows measured before it
    throw err;
  } finally {
    await processes?.endAll();
    const network = opened ? await closeStage(opened.stage, { benches: measured?.benches, log }) : null;
    signals.dispose();
    if (started) results = resultsOf(started, measured, { network, out: output.out });
    if (results) printRun({ results, file: saveResults(results, output), output, stdout, stderr, render: variant.render ?? renderRun });
  }
  return exitCodeOf(results, measured.exitCode, { variant, threshold: plan.threshold, stderr });
}
