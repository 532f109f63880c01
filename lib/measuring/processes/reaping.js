// Reaping: every driver process this harness started ends with it, on exit whatever happens, and
// through a watchdog process (orphan-watchdog.js) when the harness is killed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WATCHDOG = fileURLToPath(new URL('./orphan-watchdog.js', import.meta.url));

/** Every driver process this harness started and has not ended (ended on exit, whatever happens). */
export const live = new Set();
process.on('exit', () => {
  for (const child of live) {
    try { child.kill('SIGKILL'); } catch { /* gone */ }
  }
});

// One watchdog per harness process, started with the first driver process (see orphan-watchdog.js).
let watchdog = null;
export function watch(pid) {
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
export const unwatch = (pid) => watchdog?.stdin.write(`-${pid}\n`);
