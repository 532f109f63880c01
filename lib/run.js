// One benchmark run: server, schema, drivers, matrix, results file, table. Returns the exit code.
import conf from '../conf.js';
import { resolveConnection } from './config.js';
import { EXIT, UserError, describeConnectError, usageError } from './errors.js';
import { addSecret } from './redact.js';
import { startEmbeddedServer, installServerIfAllowed } from './server.js';
import { prepareSchema, inspectServer } from './schema.js';
import { loadDrivers } from './drivers/index.js';
import adminDriver from './drivers/mariadb.js';
import { runMatrix, ServerLost } from './runner.js';
import { createResults, describeEnvironment, applyDeltas, assertWritableDir, writeResults, serialize } from './results.js';
import { renderTable } from './report.js';
import { createProgress } from './progress.js';
import { within, deadline } from './timers.js';

export const PRESETS = {
  default: { time: 3, warmup: 1, minSamples: 5 },
  smoke: { time: 0.1, warmup: 0.05, minSamples: 2 },
};

export class Interrupted extends Error {
  constructor(signalName) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
    this.exitCode = signalName === 'SIGTERM' ? 143 : EXIT.INTERRUPTED;
  }
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
    time: opts.time ?? preset.time,
    warmup: opts.warmup ?? preset.warmup,
    minSamples: preset.minSamples,
    callTimeoutMs: 30000,
  };
}

export async function runBenchmark({ benches, opts, env, stdout, stderr, signal: outerSignal }) {
  const jsonToStdout = opts.json === true || opts.json === '-';
  const progress = createProgress(stderr, 0, { quiet: opts.quiet });
  const settings = runSettings(opts, benches);
  assertWritableDir(opts.out);

  const controller = new AbortController();
  const abort = (reason) => { if (!controller.signal.aborted) controller.abort(reason); };
  outerSignal?.addEventListener('abort', () => abort(outerSignal.reason), { once: true });
  const onSignal = (name) => {
    if (controller.signal.aborted) {
      // Second Ctrl-C: stop now; the server and its directory go with the exit hook.
      process.exit(new Interrupted(name).exitCode);
    }
    stderr.write(`\n${name}: stopping after cleaning up (again to quit at once)\n`);
    abort(new Interrupted(name));
  };
  const onSigint = () => onSignal('SIGINT');
  const onSigterm = () => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);

  let server = null;
  let admin = null;
  const onExit = () => server?.stopSync();
  process.on('exit', onExit);
  let results = null;
  let exitCode = EXIT.OK;
  try {
    const drivers = await loadDrivers(opts.drivers);
    if (!drivers.some((d) => d.name === opts.baseline)) {
      throw usageError(`baseline '${opts.baseline}' is not among the drivers run (${drivers.map((d) => d.name).join(', ')})`,
        'add it to --drivers or choose another with --baseline');
    }
    const connection = resolveConnection({
      flags: { host: opts.host, port: opts.port, user: opts.user, password: opts.password, database: opts.database, socket: opts.socket },
      env, file: conf,
    });
    addSecret(connection.password);
    let target;
    if (connection.embedded) {
      installServerIfAllowed(env);
      server = await startEmbeddedServer({ database: connection.database, onLog: (l) => progress.log(l) });
      server.process.once('exit', () => abort(new ServerLost('the embedded server exited unexpectedly')));
      target = { host: server.host, port: server.port, user: server.user, password: server.password, database: connection.database };
    } else {
      target = connection;
    }
    controller.signal.throwIfAborted();

    try {
      admin = await adminDriver.connect({ ...target, database: undefined });
    } catch (err) {
      throw describeConnectError(err, target);
    }
    await prepareSchema(admin, target.database);
    const serverInfo = { ...(await inspectServer(admin)), embedded: connection.embedded };
    const context = { schema: target.database, server: serverInfo };

    results = createResults({
      env: describeEnvironment(),
      server: serverInfo,
      drivers: drivers.map((d) => ({ name: d.name, package: d.packageName, version: d.version, via: d.via, source: d.source, options: d.options })),
      settings: { ...settings, schema: target.database },
    });
    const cells = benches.length * drivers.length;
    const matrixProgress = createProgress(stderr, cells, { quiet: opts.quiet });
    matrixProgress.log(`measuring ${benches.length} bench(es) × ${drivers.length} driver(s), ${settings.time} s each`);

    try {
      await runMatrix({
        benches, drivers, admin, target, context, settings, results,
        signal: controller.signal,
        progress: matrixProgress,
        serverAlive: () => ping(admin),
      });
      results.complete = true;
    } catch (err) {
      const reason = controller.signal.aborted ? controller.signal.reason : err;
      if (!(reason instanceof Interrupted) && !(reason instanceof ServerLost)) throw reason;
      results.stoppedBy = reason.message;
      exitCode = reason instanceof Interrupted ? reason.exitCode : EXIT.ABORTED;
    }
  } finally {
    if (admin) await within(admin.close().catch(() => {}), 2000);
    if (server) {
      progress.log('embedded server: stopping');
      await server.stop();
    }
    process.off('exit', onExit);
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    if (results) {
      results.finishedAt = new Date().toISOString();
      applyDeltas(results);
      const file = writeResults(opts.out, results);
      if (typeof opts.json === 'string' && opts.json !== '-') writeResults(opts.out, results, opts.json);
      const table = renderTable(results, { color: !jsonToStdout && stdout.isTTY });
      if (jsonToStdout) {
        stdout.write(serialize(results));
        if (!opts.quiet) stderr.write(table);
      } else {
        stdout.write(table);
      }
      if (results.complete) stderr.write(`results saved to ${file}\n`);
      else stderr.write(`mysql-driver-bench: stopped: ${results.stoppedBy} — the rows measured so far are saved to ${file}\n`);
    }
  }
  if (exitCode === EXIT.OK && results.benches.some((b) => b.results.some((r) => r.status === 'failed'))) {
    exitCode = EXIT.ROWS_FAILED;
  }
  if (!results.complete && exitCode === EXIT.OK) exitCode = EXIT.ABORTED;
  return exitCode;
}

async function ping(admin) {
  try {
    await deadline(admin.query('DO 1'), 5000, () => new Error('ping timeout'));
    return true;
  } catch {
    return false;
  }
}

export { UserError };
