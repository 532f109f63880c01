// V8 compiles a function that has got hot to optimized code on a background thread, and the
// function runs unoptimized until that compile is done. A driver process runs only in its own
// windows (it is stopped between them), so a long compile, such as mysql2's generated parser for a
// row of 100 columns, can outlast the whole run (docs/history/2026-11-28-gate.md#what-bounds-the-two-minutes-the-same-day-later).
// The wait is V8's own test hook %FinalizeOptimization(), which needs --allow-natives-syntax (it
// lets code call such hooks, and changes nothing else); where it is missing, nothing waits and
// the results say so. The modes are planning/jit-mode.js's; the flag, processes/launch.js's.
import { performance } from 'node:perf_hooks';

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
