// Reaping: every driver process this harness started ends with it, on exit whatever happens, and
// through a watchdog process (orphan-watchdog.js) when the harness is killed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killOnExit } from '../../common/children.js';

const WATCHDOG = fileURLToPath(new URL('./orphan-watchdog.js', import.meta.url));

let watchdog = null;
function watch(pid) {
  if (!watchdog) {
    watchdog = spawn(process.execPath, [WATCHDOG], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    watchdog.on('error', () => {});
    watchdog.stdin.on('error', () => {});
    watchdog.unref();
    watchdog.stdin.unref?.();
  }
  watchdog.stdin.write(`${pid}\n`);
}
// An ended process's pid may be reused: the watchdog forgets it.
const unwatch = (pid) => watchdog?.stdin.write(`-${pid}\n`);

/** Returns what forgets the process once it has ended. */
export function reap(child) {
  const forget = killOnExit(child);
  watch(child.pid);
  return () => {
    forget();
    unwatch(child.pid);
  };
}
