// What a command says when it stops on an error, and the exit code it stops with: one line for an
// error the user can act on, a signal before anything was measured, or a bug (its stack with --debug).
import { EXIT, Interrupted, UserError } from './errors.js';
import { redact } from './redact.js';

export function formatError(err, debug) {
  if (err instanceof UserError) {
    const line = `mysql-driver-bench: error: ${err.message}${err.hint ? ` — ${err.hint}` : ''}`;
    const stack = debug && err.cause ? `\n${err.cause.stack || err.cause}` : '';
    return redact(line + stack);
  }
  if (debug) return redact(`mysql-driver-bench: unexpected error\n${err?.stack || err}`);
  return redact(`mysql-driver-bench: unexpected error: ${err?.message || err} — run again with --debug for the stack trace, and report it`);
}

/** `err` said on `stderr` in one line; returns its exit code. */
export function sayError(err, { stderr, debug = false }) {
  // A signal before anything was measured: what the run started was cleaned up on the way here.
  if (err instanceof Interrupted) {
    stderr.write(`mysql-driver-bench: ${err.message}: stopped before anything was measured, nothing left running\n`);
    return err.exitCode;
  }
  stderr.write(`${formatError(err, debug)}\n`);
  return err instanceof UserError ? err.exitCode : EXIT.UNEXPECTED;
}
