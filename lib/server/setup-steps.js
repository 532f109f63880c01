// The set-up script's long steps (npm ci, apt-get): one line at each end, the full output in a log
// file, its last lines only on failure. Node built-ins only: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Where the logs go: the OS temp dir, one folder per user (a root install must not block a later user's). */
export function setupLogDir() {
  const who = typeof process.getuid === 'function' ? process.getuid() : userInfo().username;
  return join(tmpdir(), `mysql-driver-bench-setup-${who}`);
}

/** The last `n` non-empty lines of a log (progress meters that rewrite a line with \r count as lines). */
export function lastLines(text, n = 20) {
  return text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '').slice(-n);
}

export const fmtSeconds = (ms) => `${Math.max(1, Math.round(ms / 1000))} s`;

/** Runs a step's commands until one fails; true when every one succeeded. */
export function runLoggedStep(step, { say, logDir = setupLogDir(), tailLines = 20 }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, step.logName);
  say(`${step.doing} (${step.how})… full log: ${logFile}`);
  const started = Date.now();
  const fd = openSync(logFile, 'w');
  let failure = null;
  try {
    for (const [file, args] of step.commands) {
      writeSync(fd, `$ ${[file, ...args].join(' ')}\n`);
      const r = spawnSync(file, args, { ...step.spawnOptions, stdio: ['ignore', fd, fd] });
      if (r.error) {
        writeSync(fd, `${r.error.message}\n`);
        failure = r.error.code === 'ENOENT' ? `${file} not found` : r.error.message;
      } else if (r.status !== 0) {
        failure = `${file} exited with ${r.status === null ? r.signal : `code ${r.status}`}`;
      }
      if (failure) break;
    }
  } finally {
    closeSync(fd);
  }
  const took = fmtSeconds(Date.now() - started);
  if (!failure) {
    say(`${step.done} in ${took}`);
    return true;
  }
  const tail = lastLines(readFileSync(logFile, 'utf8'), tailLines);
  say(`${step.doing} failed after ${took} (${failure}); the last ${tail.length} lines of ${logFile}:`);
  for (const line of tail) say(`  | ${line}`);
  return false;
}
