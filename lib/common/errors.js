// Errors the user can act on (one line saying what went wrong and what to do), the exit codes, and
// the errors a run stops on: a lost server, and a signal (trapSignals).
export const EXIT = Object.freeze({
  OK: 0,
  ROWS_FAILED: 1, // the run completed but at least one bench x driver row failed its check or errored
  USAGE: 2, // bad flags, unknown bench or driver, unusable input file
  SETUP: 3, // could not start, reach, log into or prepare the server (nothing was measured)
  ABORTED: 4, // the run stopped part-way (server lost), or `merge` was given an incomplete set of shards; partial results were saved
  INSTALL: 5, // something the run needs could not be installed: npm dependencies, mariadbd, Valgrind, a driver release or a checkout's dependencies
  UNEXPECTED: 70, // a bug: an error the harness did not foresee (EX_SOFTWARE); --debug prints its stack
  INTERRUPTED: 130, // SIGINT (Ctrl-C), as a shell reports it (128 + the signal's number)
  TERMINATED: 143, // SIGTERM
  HUNG_UP: 129, // SIGHUP: the terminal closed (an SSH session dropped)
});

export class UserError extends Error {
  constructor(message, { exitCode = EXIT.USAGE, hint, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'UserError';
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

export function usageError(message, hint) {
  return new UserError(message, { exitCode: EXIT.USAGE, hint });
}

export function setupError(message, hint, cause) {
  return new UserError(message, { exitCode: EXIT.SETUP, hint, cause });
}

export function installError(message, hint, cause) {
  return new UserError(message, { exitCode: EXIT.INSTALL, hint, cause });
}

/** Turn a driver or system error met while connecting into a UserError naming cause and fix. */
export function describeConnectError(err, target) {
  const code = err?.code || err?.cause?.code;
  const where = target.socket ? `socket ${target.socket}` : `${target.host}:${target.port}`;
  const errno = err?.errno;
  if (code === 'ER_ACCESS_DENIED_ERROR' || errno === 1045) {
    return setupError(`access denied for user '${target.user}' on ${where}`,
      'check the user and password (--user/--password, DB_USER/DB_PASSWORD or conf.js)', err);
  }
  if (code === 'ER_DBACCESS_DENIED_ERROR' || errno === 1044) {
    return setupError(`user '${target.user}' may not use database '${target.database}' on ${where}`,
      'grant it rights on that schema, or choose another with --database', err);
  }
  if (code === 'ER_BAD_DB_ERROR' || errno === 1049) {
    return setupError(`database '${target.database}' does not exist on ${where}`,
      'create it, or let the harness create its own by granting CREATE on it', err);
  }
  if (code === 'ECONNREFUSED') {
    return setupError(`nothing is listening on ${where} (connection refused)`,
      'is the server running? check --host/--port or DB_HOST/DB_PORT; leave both unset to use the embedded server', err);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return setupError(`host name '${target.host}' does not resolve`,
      'check --host or DB_HOST', err);
  }
  if (code === 'ENOENT' && target.socket) {
    return setupError(`socket ${target.socket} does not exist`, 'check --socket or DB_SOCKET', err);
  }
  if (code === 'ETIMEDOUT' || code === 'ER_CONNECTION_TIMEOUT' || /timeout/i.test(err?.message || '')) {
    return setupError(`connecting to ${where} timed out`,
      'is the host reachable and the port right? check --host/--port', err);
  }
  return setupError(`cannot connect to ${where}: ${err?.message || err}`,
    'check the connection settings (--host, --port, --user, --password, --socket)', err);
}

const SIGNAL_EXIT_CODES = { SIGINT: EXIT.INTERRUPTED, SIGTERM: EXIT.TERMINATED, SIGHUP: EXIT.HUNG_UP };

/** The server went away during a run (the embedded server exited, or a cell lost its connection). */
export class ServerLost extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServerLost';
  }
}

export class Interrupted extends Error {
  constructor(signalName) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interrupted';
    this.exitCode = SIGNAL_EXIT_CODES[signalName] ?? EXIT.INTERRUPTED;
  }
}

/** SIGINT, SIGTERM and SIGHUP abort the returned signal (to clean up and save); a second one exits at once. */
export function trapSignals(stderr, outerSignal) {
  const controller = new AbortController();
  const abort = (reason) => { if (!controller.signal.aborted) controller.abort(reason); };
  outerSignal?.addEventListener('abort', () => abort(outerSignal.reason), { once: true });
  const onSignal = (name) => {
    if (controller.signal.aborted) process.exit(new Interrupted(name).exitCode);
    stderr.write(`\n${name}: stopping after cleaning up (again to quit at once)\n`);
    abort(new Interrupted(name));
  };
  const handlers = Object.keys(SIGNAL_EXIT_CODES).map((name) => [name, () => onSignal(name)]);
  for (const [name, handler] of handlers) process.on(name, handler);
  return {
    signal: controller.signal,
    abort,
    dispose() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
