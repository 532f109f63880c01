// CPU wake-up control: on a VM an idle CPU is slow to wake, and a one-connection bench is a chain of
// such waits. `spin` keeps idle CPUs awake with nice-19 busy loops while sampling; `none` does nothing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { usageError } from '../../common/errors.js';
import { killOnExit } from '../../common/children.js';

const SPINNER = fileURLToPath(new URL('./spinner.js', import.meta.url));

// docs/measuring.md#cpu-placement---cpus (wake-ups).
export const DEFAULT_WAKE = 'none';

/** Spin for an open schedule (--rate), whose driver process never sleeps: the server's CPU stays out of idle too, in every pass alike. */
export const defaultWake = ({ openSchedule = false } = {}) => parseWake(openSchedule ? 'spin' : DEFAULT_WAKE);

export const runWake = (asked, { openSchedule = false } = {}) => asked ?? defaultWake({ openSchedule });

export const defaultSpinners = () => Math.max(1, cpus().length - 1);

export function parseWake(value) {
  const m = /^(?:(none)|spin(?:[:=]?(\d+))?)$/.exec(String(value).trim());
  if (!m) throw usageError(`--wake must be 'spin', 'spin:N' or 'none', not '${value}'`);
  if (m[1]) return { mode: 'none', spinners: 0 };
  const n = m[2] === undefined ? defaultSpinners() : Number(m[2]);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw usageError(`--wake spin:N needs N from 1 to 256, not '${m[2]}'`);
  return { mode: 'spin', spinners: n };
}

export function describeWake(wake) {
  return wake.mode === 'spin' ? `spin:${wake.spinners}` : 'none';
}

/** stop() is idempotent and synchronous, and also runs on exit; spinners exit by themselves if this process dies. */
export function startWake(wake) {
  const children = [];
  for (let i = 0; i < (wake.mode === 'spin' ? wake.spinners : 0); i++) {
    const child = spawn(process.execPath, [SPINNER], { stdio: 'ignore' });
    child.on('error', () => {});
    children.push({ child, forget: killOnExit(child) });
  }
  const pids = children.map((c) => c.child.pid);
  const stop = () => {
    for (const { child, forget } of children.splice(0)) {
      try { child.kill('SIGKILL'); } catch { /* gone */ }
      forget();
    }
  };
  return { stop, pids };
}

export async function withWake(wake, fn) {
  const w = startWake(wake);
  try {
    return await fn();
  } finally {
    w.stop();
  }
}
