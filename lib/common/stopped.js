// How a measuring stage ends when it does not finish: a signal or a lost server is an ending (the
// stage's values so far, with the reason and its exit code); any other error is thrown, carrying them.
import { EXIT, Interrupted, ServerLost } from './errors.js';
import { errorText } from './redact.js';

/** `partial`: what the stage measured so far. Returns it as a stopped stage's value, or throws `err` with it as `err.partial`. */
export function stoppedWith(err, signal, partial) {
  const reason = signal?.aborted ? signal.reason : err;
  if (reason instanceof Interrupted || reason instanceof ServerLost) {
    return { ...partial, complete: false, stoppedBy: reason.message, exitCode: reason instanceof Interrupted ? reason.exitCode : EXIT.ABORTED };
  }
  if (reason && typeof reason === 'object') reason.partial = { ...partial, complete: false, stoppedBy: `an unexpected error (${errorText(reason)})` };
  throw reason;
}
