// How a driver process is started: its V8 flags, its time zone, and for another runtime or a
// replayed row, its executable, its messages' serialization and its environment.
import { DETERMINISTIC_V8_FLAGS, fixedLayoutLauncher, fixedMallocTunables } from './same-program.js';

// Lets a driver process wait for V8's background compiles (driver/jit.js, --jit wait).
export const JIT_HOOK_FLAG = '--allow-natives-syntax';

// The same V8 heap settings for every driver process: V8 sized the young generation from what the
// process did before, and a driver's figure moved with the benches before it (docs/measuring.md, "How a bench is measured").
export const DRIVER_PROCESS_FLAGS = Object.freeze(['--min-semi-space-size=16', '--max-semi-space-size=16', JIT_HOOK_FLAG]);

// A --replay process runs V8 deterministically (same-program.js) so a row's processes differ by what
// the host does, not by V8's timing, and has gc() for its warm-up's one full collection.
export const REPLAY_PROCESS_FLAGS = Object.freeze([...DETERMINISTIC_V8_FLAGS, '--expose-gc']);

export const driverProcessFlags = (target) => (target?.replay ? [...DRIVER_PROCESS_FLAGS, ...REPLAY_PROCESS_FLAGS] : [...DRIVER_PROCESS_FLAGS]);

// mariadb builds Dates in the process's zone, mysql and mysql2 in their `timezone` option's: only with
// both in UTC do the three return the same instant for a DATETIME.
export const DRIVER_PROCESS_TZ = 'UTC';

/** Another Node's messages are JSON (V8's format changes between majors); Bun takes no V8 flags. */
export function processRuntime(runtime, target) {
  const how = startedHow(runtime, target);
  if (target?.replay) how.env = { GLIBC_TUNABLES: fixedMallocTunables(process.env.GLIBC_TUNABLES) };
  return how;
}

function startedHow(runtime, target) {
  if (!runtime || runtime.harness) {
    const fixed = target?.replay ? fixedLayoutLauncher() : null;
    if (fixed) return { serialization: 'advanced', execPath: fixed.command, execArgv: [...fixed.args, process.execPath, ...driverProcessFlags(target)] };
    return { serialization: 'advanced', execArgv: driverProcessFlags(target) };
  }
  if (runtime.kind === 'bun') return { serialization: 'json', execPath: runtime.exec, execArgv: [] };
  return { serialization: 'json', execPath: runtime.exec, execArgv: driverProcessFlags(target) };
}
