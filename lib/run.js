// One benchmark run: server, schema, drivers, matrix, results file, table. Returns the exit code.
import { EXIT } from './errors.js';
import { resolveBaseline, describeBaseline } from './baseline.js';
import { loadDrivers } from './drivers/index.js';
import { runMatrix, ServerLost } from './runner.js';
import { createResults, describeEnvironment, applyDeltas, assertWritableDir, writeResults, serialize } from './results.js';
import { renderTable } from './report.js';
import { createProgress } from './progress.js';
import { describeWake, withWake } from './wake.js';
import { Interrupted, openServer, trapSignals } from './session.js';
import { resolveNetwork, startProxy, summarizeAddedDelay, describeAddedDelay } from './proxy.js';
import { sleep } from './timers.js';
import { catalogueFailed, renderCatalogue, runCatalogue } from './catalogue.js';
import { concurrencyLevels } from './scaling.js';
import { startHealthMonitor } from './health.js';

export const PRESETS = {
  default: { time: 1.5, warmup: 0.3, minSamples: 5, rounds: 2 },
  smoke: { time: 0.1, warmup: 0.05, minSamples: 2, rounds: 1 },
};

/** One line on the harness's own health: its memory over the run and the server's connection count. */
export function describeHealth(h) {
  const connections = h.threadsConnectedAfter === undefined ? '' : `; server connections ${h.threadsConnectedBefore} before, ${h.threadsConnectedAfter} after`;
  return `harness memory: RSS ${h.rssStartMB} → ${h.rssEndMB} MB (peak ${h.rssPeakMB}), V8 heap used ${h.heapUsedStartMB} → ${h.heapUsedEndMB} MB${connections}`;
}

/** Settings recorded in the results (never connection secrets). */
function runSettings(opts, benches) {
  const preset = opts.smoke ? PRESETS.smoke : PRESETS.default;
  return {
    mode: opts.smoke ? 'smoke' : 'default',
    drivers: opts.drivers,
    baseline: opts.baseline,
    benches: benches.map((b) => b.name),
    concurrency: opts.concurrency,
    rounds: opts.rounds ?? preset.rounds,
    time: opts.time ?? preset.time,
    warmup: opts.warmup ?? preset.warmup,
    wake: describeWake(opts.wake),
    minSamples: preset.minSamples,
    callTimeoutMs: 30000,
  };
}

export async function runBenchmark({ benches, opts, env, stdout, stderr, signal: outerSignal }) {
  const jsonToStdout = opts.json === true || opts.json === '-';
  const progress = createProgress(stderr, 0, { quiet: opts.quiet });
  const settings = runSettings(opts, benches);
  const network = resolveNetwork({ rtt: opts.rtt, network: opts.network });
  settings.network = { name: network.name, rttMs: network.rttMs };
  assertWritableDir(opts.out);

  const signals = trapSignals(stderr, outerSignal);
  let session = null;
  let proxy = null;
  let results = null;
  let exitCode = EXIT.OK;
  try {
    const drivers = await loadDrivers(opts.drivers);
    const baseline = resolveBaseline({ explicit: opts.baseline, specs: opts.drivers, drivers });
    opts = { ...opts, baseline: baseline.name };
    settings.baseline = baseline.name;
    session = await openServer({ opts, env, log: (l) => progress.log(l), abort: signals.abort, signal: signals.signal });
    const { admin, context, serverInfo } = session;
    let { target } = session;
    if (network.rttMs > 0) {
      // The drivers go through the latency proxy; the harness's own admin connection does not.
      proxy = await startProxy(target, network.rttMs);
      progress.log(`network: +${network.rttMs} ms RTT through a latency proxy (pid ${proxy.pid}) that holds every chunk `
        + `at least ${network.rttMs / 2} ms each way; what it added is measured over the run`);
      target = { ...target, host: proxy.host, port: proxy.port, socket: undefined };
    }
    progress.log(describeBaseline(baseline)); // once the server is up, so a failure to reach it stays one line

    results = createResults({
      env: describeEnvironment(),
      server: serverInfo,
      drivers: drivers.map((d) => ({ name: d.name, package: d.packageName, version: d.version, via: d.via, source: d.source, options: d.options })),
      settings: { ...settings, schema: target.database },
    });
    const threadsConnected = async () => {
      try {
        const [row] = await admin.query("SHOW GLOBAL STATUS LIKE 'Threads_connected'");
        return Number(row.Value);
      } catch {
        return null;
      }
    };
    // The harness's own health over the run: its memory, and connections left open on the server.
    const threadsConnectedBefore = await threadsConnected();
    const memory = startHealthMonitor();
    const cells = benches.length * drivers.length * settings.rounds * concurrencyLevels(settings.concurrency).length;
    const matrixProgress = createProgress(stderr, cells, { quiet: opts.quiet, rounds: settings.rounds });
    const startCell = matrixProgress.start.bind(matrixProgress);
    matrixProgress.start = (bench, driver, round) => {
      memory.setCell(`${bench.name} · ${driver.name}`);
      startCell(bench, driver, round);
    };
    // Recorded when the matrix ends, also when it is interrupted, so partial results keep their memory timeline.
    const recordHealth = (extra) => {
      const { timeline, ...summary } = memory.stop();
      results.health = { ...summary, threadsConnectedBefore, ...extra, timeline };
    };
    matrixProgress.log(`measuring ${benches.length} bench(es) × ${drivers.length} driver(s) × ${settings.rounds} round(s), `
      + `${settings.warmup} s warm-up + ${settings.time} s sampling each, wake ${settings.wake}`);

    try {
      // runCatalogue: once per --concurrency level, then the streaming and metadata sections.
      await withWake(opts.wake, () => runCatalogue({
        opts, settings, results, benches, drivers, admin, target, context, signal: signals.signal, log: (l) => matrixProgress.log(l),
      }, (levelSettings) => runMatrix({
        benches, drivers, admin, target, context, settings: levelSettings, results,
        signal: signals.signal,
        progress: matrixProgress,
        serverAlive: session.alive,
      })));
      results.complete = true;
      await sleep(300); // closed connections take a moment to leave the server's count
      recordHealth({ threadsConnectedAfter: await threadsConnected() });
    } catch (err) {
      recordHealth({});
      const reason = signals.signal.aborted ? signals.signal.reason : err;
      if (!(reason instanceof Interrupted) && !(reason instanceof ServerLost)) throw reason;
      results.stoppedBy = reason.message;
      exitCode = reason instanceof Interrupted ? reason.exitCode : EXIT.ABORTED;
    }
  } finally {
    if (proxy) {
      Object.assign(settings.network, summarizeAddedDelay(await proxy.report()));
      if (results) results.settings.network = { ...settings.network };
      progress.log(describeAddedDelay(settings.network));
      await proxy.stop();
    }
    await session?.close();
    signals.dispose();
    if (results) {
      results.finishedAt = new Date().toISOString();
      applyDeltas(results);
      const file = writeResults(opts.out, results);
      if (typeof opts.json === 'string' && opts.json !== '-') writeResults(opts.out, results, opts.json);
      const table = renderTable(results, { color: !jsonToStdout && stdout.isTTY, latency: opts.latency }) + renderCatalogue(results);
      if (jsonToStdout) {
        stdout.write(serialize(results));
        if (!opts.quiet) stderr.write(table);
      } else {
        stdout.write(table);
      }
      if (results.health && !opts.quiet) stderr.write(`${describeHealth(results.health)}\n`);
      if (results.complete) stderr.write(`results saved to ${file}\n`);
      else stderr.write(`mysql-driver-bench: stopped: ${results.stoppedBy} — the rows measured so far are saved to ${file}\n`);
    }
  }
  if (exitCode === EXIT.OK && (results.benches.some((b) => b.results.some((r) => r.status === 'failed')) || catalogueFailed(results))) {
    exitCode = EXIT.ROWS_FAILED;
  }
  return exitCode;
}
