// Timers that never keep the process alive on their own.
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Resolve with `promise`'s value, or with `fallback` after `ms`. */
export function within(promise, ms, fallback = undefined) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(fallback), ms); timer.unref(); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Reject with `error()` after `ms` unless `promise` settles first. */
export function deadline(promise, ms, error) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(error()), ms); timer.unref(); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Busy-wait on a clock that allocates nothing (performance.now() made garbage: docs/history/2026-11-25-rtt.md). */
export function spinFor(ms) {
  const until = process.hrtime.bigint() + BigInt(Math.ceil(ms * 1e6));
  while (process.hrtime.bigint() < until);
}

const NOTHING = () => {};

/** Call `onAbort(signal.reason)` when `signal` aborts, at once if it has; returns what stops listening. */
export function whenAborted(signal, onAbort) {
  if (!signal) return NOTHING; // no allocation: a driver process's warm-up calls this per operation
  const listener = () => onAbort(signal.reason);
  if (signal.aborted) {
    listener();
    return NOTHING;
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** Reject as soon as `signal` aborts, whatever `promise` does (`promise` itself without a signal). */
export function unlessAborted(promise, signal) {
  if (!signal) return promise;
  let stopListening;
  const aborted = new Promise((_, reject) => { stopListening = whenAborted(signal, reject); });
  return Promise.race([promise, aborted]).finally(() => stopListening());
}
