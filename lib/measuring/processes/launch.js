// How a driver process is started: its V8 flags, its time zone, and for another runtime or a
// replayed row, its executable, its messages' serialization and its environment.
import { DETERMINISTIC_V8_FLAGS, fixedLayoutLauncher, fixedMallocTunables } from './same-program.js';

// Lets a driver process wait for V8's background compiles (driver/jit.js, --jit wait).
export const JIT_HOOK_FLAG = '--allow-natives-syntax';

// The same V8 heap settings for every driver process: V8 sized the young generation from what the
// process did before, and a driver's figure moved with the benches before it (docs/measuring.md, "How a bench is measured").
export const DRIVER_PROCESS_FLAGS = Object.freeze(['--min-semi-space-size=16', '--max-semi-space-size=16', JIT_HOOK_FLAG]);

// A --replay process runs V8 deterministically (same-program.js), so that a row's processes run the
// same program and differ by what the host does, not by when V8 decided something (docs/replay.md),
// and has gc(), for one full collection in its warm-up (warm-up-loops.js).
export const REPLAY_PROCESS_FLAGS = Object.freeze([...DETERMINISTIC_V8_FLAGS, '--expose-gc']);

/** The V8 flags of a driver process whose connections go to `target`. */
export const driverProcessFlags = (target) => (target?.replay ? [...DRIVER_PROCESS_FLAGS, ...REPLAY_PROCESS_FLAGS] : [...DRIVER_PROCESS_FLAGS]);

// Every driver process runs in UTC, whatever the machine's zone: `mariadb` builds Date values in the
// process's local time zone, `mysql` and `mysql2` in their `timezone` option's, so only with both in
// UTC do the three return the same instant for the same DATETIME (the data-type bench checks it).
export const DRIVER_PROCESS_TZ = 'UTC';

/**
 * How a driver process is started on its row's runtime. On the harness's Node: its V8 flags, and
 * messages in V8's serialization. On another Node: the same flags, messages in JSON (V8's format
 * changes between majors). On Bun: no V8 flags (JavaScriptCore has none of them; the results say
 * what the row lacks), messages in JSON, which Bun's IPC with Node speaks. A replayed row's process
 * also gets `env`: glibc's malloc thresholds fixed (added to the harness's environment).
 */
export function processRuntime(runtime, target) {
  const how = startedHow(runtime, target);
  // A replayed row's processes also take their large buffers the same way (same-program.js).
  if (target?.replay) how.env = { GLIBC_TUNABLES: fixedMallocTunables(process.env.GLIBC_TUNABLES) };
  return how;
}

function startedHow(runtime, target) {
  if (!runtime || runtime.harness) {
    // A replayed row's processes also share one address layout (same-program.js), where setarch can.
    const fixed = target?.replay ? fixedLayoutLauncher() : null;
    if (fixed) return { serialization: 'advanced', execPath: fixed.command, execArgv: [...fixed.args, process.execPath, ...driverProcessFlags(target)] };
    return { serialization: 'advanced', execArgv: driverProcessFlags(target) };
  }
  if (runtime.kind === 'bun') return { serialization: 'json', execPath: runtime.exec, execArgv: [] };
  return { serialization: 'json', execPath: runtime.exec, execArgv: driverProcessFlags(target) };
}
