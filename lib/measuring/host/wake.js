// CPU wake-up control. On virtual machines a CPU that idles while the client waits for a reply
// takes tens of microseconds to wake, and a one-connection benchmark is a chain of such waits.
// `spin` keeps idle CPUs awake with lowest-priority (nice 19) busy loops while sampling;
// `none` leaves the machine alone.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { usageError } from '../../common/errors.js';
import { killOnExit } from '../../common/children.js';

const SPINNER = fileURLToPath(new URL('./spinner.js', import.meta.url));

// Chosen from measurements on a 2-core VM (docs/measuring.md, "CPU placement": wake-ups).
export const DEFAULT_WAKE = 'none';

/**
 * The wake mode of a run that names none: none, but spin for an open schedule (--rate), whose
 * driver process never sleeps (ticker.js), so that the server's CPU is kept out of idle too, in its
 * closed-loop pass and at each rate alike.
 */
export const defaultWake = ({ openSchedule = false } = {}) => parseWake(openSchedule ? 'spin' : DEFAULT_WAKE);

/** A run's wake mode: the one it names (`asked`, parsed), else its default (what its settings record and what runs). */
export const runWake = (asked, { openSchedule = false } = {}) => asked ?? defaultWake({ openSchedule });

/** Default number of spinners: all CPUs but one (at least one). */
export const defaultSpinners = () => Math.max(1, cpus().length - 1);

/** Parse `spin`, `spin:N`, `spinN` or `none` into { mode, spinners }. */
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

/**
 * Start the spinners of a wake mode. Returns { stop() }; stop is idempotent and synchronous,
 * and also runs on process exit. Spinners also exit by themselves if this process dies.
 */
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

/** Run `fn` with the wake mode applied, always stopping the spinners. */
export async function withWake(wake, fn) {
  const w = startWake(wake);
  try {
    return await fn();
  } finally {
    w.stop();
  }
}
