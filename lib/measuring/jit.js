// V8 compiles a function that has got hot to optimized code on a background thread, and the
// function runs unoptimized until that compile is done. A driver process runs only in its own
// windows (it is stopped between them), so a long compile can outlast the whole run: mysql2's
// generated parser for a row of 100 columns takes V8 about 3 s of compiling here, and in every
// driver process of a default run it was still compiling at the end (docs/measuring.md, "V8's background
// compiles: --jit").
//   background  V8 compiles while the driver process runs, as in any process (the default)
//   wait        a driver process waits for V8's queued compiles at the end of its warm-up and
//               after each window, outside the measured parts: figures of the optimized code
// The wait is V8's own test hook %FinalizeOptimization(), which needs --allow-natives-syntax (it
// lets code call such hooks, and changes nothing else); where it is missing, nothing waits and
// the results say so.
import { performance } from 'node:perf_hooks';
import { usageError } from '../common/errors.js';

export const JIT_MODES = ['background', 'wait'];
// Waiting costs a default run about 65 s here (mysql2's five wide-row parsers, about 3 s each in
// each of a row's four processes), which would take it past 4 minutes.
export const DEFAULT_JIT = 'background';

export function parseJit(value) {
  const v = String(value).trim();
  if (!JIT_MODES.includes(v)) throw usageError(`--jit must be one of ${JIT_MODES.join(', ')}, not '${value}'`);
  return v;
}

export const JIT_HOOK_FLAG = '--allow-natives-syntax';

function loadHook() {
  try {
    // eslint-disable-next-line no-new-func
    return new Function('%FinalizeOptimization()');
  } catch {
    return null; // the flag is not set, or this V8 has no such hook
  }
}

const finalize = loadHook();

/** Can this process wait for V8's background compiles? */
export const canAwaitCompiles = () => finalize !== null;

/**
 * Block until every compile V8 has queued for this process is done and its code installed.
 * Returns the milliseconds waited (0 where the hook is missing).
 */
export function awaitCompiles() {
  if (!finalize) return 0;
  const start = performance.now();
  finalize();
  return performance.now() - start;
}
