// One benchmark run: server, schema, drivers, matrix, results file, table. Returns the exit code.
import { EXIT } from './errors.js';
import { resolveBaseline, describeBaseline } from './baseline.js';
import { loadDrivers } from './drivers/index.js';
import { runMatrix, ServerLost } from './runner.js';
import { DRIVER_PROCESS_FLAGS, DriverProcesses } from './drivers/driver-handle.js';
import { hostLoadBetween, readCpuCounters } from './measuring/host-load.js';
import { DEFAULT_PLACEMENT, canPin, describePlacement, pin, pinThreads, planPlacement } from './measuring/placement.js';

const round3 = (x) => Math.round(x * 1000) / 1000;
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

// time: measured seconds per bench and driver, split into `rounds` windows; lead: the unmeasured
// lead-in of each window (README, "How a bench is measured").
export const PRESETS = {
  default: { time: 2.5, lead: 0.03, warmup: 0.3, rounds: 36 },
  smoke: { time: 0.1, lead: 0.02, warmup: 0.05, rounds: 2 },
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
    lead: opts.lead ?? preset.lead,
    driverProcessFlags: [...DRIVER_PROCESS_FLAGS],
    warmup: opts.warmup ?? preset.warmup,
    wake: describeWake(opts.wake),
    callTimeoutMs: 30000,
  };
}

/** The main table and the catalogue's sections: what a run prints. */
const renderRun = (results, { color, latency }) => renderTable(results, { color, latency }) + renderCatalogue(results);

/**
 * One run: server, placement, driver processes, the benches, the results file, the report.
 * `variant` lets a command reuse the whole run with its own rows and report (`aa`, `calibrate`):
 * { prepareDrivers(drivers) -> drivers, render(results, { color, latency }) -> text, exitCode(results, code) -> code }.
 */
export async function runBenchmark({ benches, opts, env, stdout, stderr, signal: outerSignal, variant = {} }) {
  const jsonToStdout = opts.json === true || opts.json === '-';
  const progress = createProgress(stderr, 0, { quiet: opts.quiet });
  const settings = runSettings(opts, benches);
  const network = resolveNetwork({ rtt: opts.rtt, network: opts.network });
  settings.network = { name: network.name, rttMs: network.rttMs };
  assertWritableDir(opts.out);

  const signals = trapSignals(stderr, outerSignal);
  let session = null;
  let proxy = null;
  let processes = null;
  let results = null;
  let exitCode = EXIT.OK;
  try {
    const loaded = await loadDrivers(opts.drivers);
    const baseline = resolveBaseline({ explicit: opts.baseline, specs: opts.drivers, drivers: loaded });
    opts = { ...opts, baseline: baseline.name };
    settings.baseline = baseline.name;
    const drivers = variant.prepareDrivers ? variant.prepareDrivers(loaded) : loaded;
    session = await openServer({
      opts, env, log: (l) => progress.log(l), abort: signals.abort, signal: signals.signal,
      tls: benches.some((b) => b.requires?.includes('tls')), // a certificate is made only for a run that needs one
    });
    const { admin, context, serverInfo } = session;
    let { target } = session;
    // CPU placement: the same for every driver, recorded in the results.
    const placement = planPlacement(opts.cpus ?? DEFAULT_PLACEMENT, { embedded: serverInfo.embedded, pinning: canPin() });
    if (placement.note) progress.log(`placement: ${placement.note}`);
    pin(session.serverPid, placement.server);
    pin(process.pid, placement.harness);
    settings.placement = placement;
    if (network.rttMs > 0) {
      // The drivers go through the latency proxy; the harness's own admin connection does not.
      proxy = await startProxy(target, network.rttMs);
      pin(proxy.pid, placement.harness ?? placement.server ?? placement.client); // off the measured CPU
      progress.log(`network: +${network.rttMs} ms RTT through a latency proxy (pid ${proxy.pid}) that holds every chunk `
        + `at least ${network.rttMs / 2} ms each way; what it added is measured over the run`);
      target = { ...target, host: proxy.host, port: proxy.port, socket: undefined };
    }
    progress.log(describeBaseline(baseline)); // once the server is up, so a failure to reach it stays one line
    const placedThreads = new Map();
    const place = (pid) => {
      if (!placedThreads.has(pid)) placedThreads.set(pid, new Set());
      pinThreads(pid, placement.client, placement.harness, placedThreads.get(pid));
    };
    processes = new DriverProcesses({ target, context, place });

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
    const hostCounters = readCpuCounters();
    const memory = startHealthMonitor();
    const levels = concurrencyLevels(settings.concurrency).length;
    const matrixProgress = createProgress(stderr, benches.length * levels, { quiet: opts.quiet });
    const benchProgress = {
      round(bench, r, rounds) {
        if (r === 0) memory.setCell(bench.name);
        matrixProgress.round(bench, r, rounds);
      },
      benchDone: matrixProgress.benchDone,
    };
    // Recorded when the matrix ends, also when it is interrupted, so partial results keep their memory timeline.
    const recordHealth = (extra) => {
      const { timeline, ...summary } = memory.stop();
      results.health = { ...summary, threadsConnectedBefore, ...extra, timeline };
      // What the hypervisor took while this run measured (steal) and the disk waits (iowait).
      results.host = hostLoadBetween(hostCounters, readCpuCounters());
    };
    matrixProgress.log(`measuring ${benches.length} bench(es) × ${drivers.length} driver(s), each driver in its own process: `
      + `${settings.rounds} rounds of interleaved windows (${settings.lead} s lead-in + ${round3(settings.time / settings.rounds)} s measured), `
      + `${describePlacement(placement)}, wake ${settings.wake}`);

    try {
      // runCatalogue: once per --concurrency level, then the streaming and metadata sections.
      await withWake(opts.wake, () => runCatalogue({
        opts, settings, results, benches, drivers, admin, target, context, signal: signals.signal, log: (l) => matrixProgress.log(l),
      }, (levelSettings) => runMatrix({
        benches, drivers, processes, admin, context, results,
        settings: { ...levelSettings, time: levelSettings.time / levelSettings.rounds },
        signal: signals.signal,
        progress: benchProgress,
        serverAlive: session.alive,
        serverPid: session.serverPid,
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
    await processes?.endAll();
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
      const table = (variant.render ?? renderRun)(results, { color: !jsonToStdout && stdout.isTTY, latency: opts.latency });
      if (jsonToStdout) {
        stdout.write(serialize(results));
        if (!opts.quiet) stderr.write(table);
      } else {
        stdout.write(table);
      }
      if (results.health && !opts.quiet) stderr.write(`${describeHealth(results.health)}\n`);
      if (results.host?.stealPct >= 1) {
        stderr.write(`host: the hypervisor stole ${results.host.stealPct} % of this machine's CPU time during the run `
          + `(I/O wait ${results.host.iowaitPct} %): figures from a contended host; compare runs only with similar figures here\n`);
      }
      if (results.complete) stderr.write(`results saved to ${file}\n`);
      else stderr.write(`mysql-driver-bench: stopped: ${results.stoppedBy} — the rows measured so far are saved to ${file}\n`);
    }
  }
  if (exitCode === EXIT.OK && (results.benches.some((b) => b.results.some((r) => r.status === 'failed')) || catalogueFailed(results))) {
    exitCode = EXIT.ROWS_FAILED;
  }
  return variant.exitCode ? variant.exitCode(results, exitCode) : exitCode;
}
