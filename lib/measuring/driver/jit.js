// Waits for V8's background compiles: a driver process runs only in its windows, so a long compile
// (mysql2's parser for a 100-column row) could outlast the run (docs/measuring.md#v8s-background-compiles---jit).
// %FinalizeOptimization() needs --allow-natives-syntax (processes/launch.js); without it nothing waits.
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

export const canAwaitCompiles = () => finalize !== null;

/** Blocks until every compile V8 has queued is installed; the ms waited. */
export function awaitCompiles() {
  if (!finalize) return 0;
  const start = performance.now();
  finalize();
  return performance.now() - start;
}
