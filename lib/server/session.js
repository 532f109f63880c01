// What every command that talks to a server shares: signal handling, the server (embedded or
// remote), the harness's admin connection and schema, and their clean-up.
import conf from '../../conf.js';
import { resolveConnection } from '../cli/config.js';
import { EXIT, describeConnectError } from '../cli/errors.js';
import { addSecret } from '../cli/redact.js';
import { startEmbeddedServer, installServerIfAllowed } from './embedded.js';
import { prepareSchema, inspectServer } from './schema.js';
import adminDriver from '../drivers/mariadb.js';
import { ServerLost } from '../measuring/runner.js';
import { within, deadline } from '../measuring/timers.js';

export class Interrupted extends Error {
  constructor(signalName) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
    this.exitCode = signalName === 'SIGTERM' ? 143 : EXIT.INTERRUPTED;
  }
}

/**
 * SIGINT/SIGTERM abort the returned signal (the command then cleans up and saves what it has);
 * a second one exits at once. Call dispose() when done.
 */
export function trapSignals(stderr, outerSignal) {
  const controller = new AbortController();
  const abort = (reason) => { if (!controller.signal.aborted) controller.abort(reason); };
  outerSignal?.addEventListener('abort', () => abort(outerSignal.reason), { once: true });
  const onSignal = (name) => {
    if (controller.signal.aborted) process.exit(new Interrupted(name).exitCode);
    stderr.write(`\n${name}: stopping after cleaning up (again to quit at once)\n`);
    abort(new Interrupted(name));
  };
  const onSigint = () => onSignal('SIGINT');
  const onSigterm = () => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return {
    signal: controller.signal,
    abort,
    dispose() {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    },
  };
}

/** Connection flags of a command's options. */
export const connectionFlags = (opts) => ({
  host: opts.host, port: opts.port, user: opts.user, password: opts.password, database: opts.database, socket: opts.socket,
});

/**
 * Start (or reach) the server, open the admin connection, prepare the harness's schema.
 * Returns { target, admin, serverInfo, context, close() }; close() is safe to call twice.
 * On failure everything opened so far is closed before the error is thrown.
 */
export async function openServer({ opts, env, log, abort, signal }) {
  const connection = resolveConnection({ flags: connectionFlags(opts), env, file: conf });
  addSecret(connection.password);
  let server = null;
  let admin = null;
  const onExit = () => server?.stopSync();
  process.on('exit', onExit);
  const close = async () => {
    if (admin) await within(admin.close().catch(() => {}), 2000);
    admin = null;
    if (server) {
      log('embedded server: stopping');
      await server.stop();
      server = null;
    }
    process.off('exit', onExit);
  };
  try {
    let target;
    if (connection.embedded) {
      installServerIfAllowed(env);
      server = await startEmbeddedServer({ database: connection.database, onLog: log });
      server.process.once('exit', () => abort(new ServerLost('the embedded server exited unexpectedly')));
      target = { host: server.host, port: server.port, user: server.user, password: server.password, database: connection.database };
    } else {
      target = connection;
    }
    signal?.throwIfAborted();
    try {
      admin = await adminDriver.connect({ ...target, database: undefined });
    } catch (err) {
      throw describeConnectError(err, target);
    }
    await prepareSchema(admin, target.database);
    const serverInfo = { ...(await inspectServer(admin)), embedded: connection.embedded };
    return {
      target,
      admin,
      serverInfo,
      context: { schema: target.database, server: serverInfo },
      close,
      alive: () => ping(admin),
      serverPid: server?.process.pid ?? null, // the embedded server (null for a remote one)
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function ping(admin) {
  try {
    await deadline(admin.query('DO 1'), 5000, () => new Error('ping timeout'));
    return true;
  } catch {
    return false;
  }
}
