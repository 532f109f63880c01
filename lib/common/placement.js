// CPU placement (--cpus): where the driver processes, the embedded server and the coordinating
// harness run. Applied to every driver alike with taskset (util-linux), recorded in the results.
//
//   shared  driver processes and the embedded mariadbd on one CPU (CPU 0), the harness on another:
//           no reply has to wake an idle CPU, so figures follow the CPU work of client and server
//   split   driver processes on CPU 0, the embedded mariadbd (and the latency proxy) on CPU 1:
//           every reply crosses CPUs, as on two machines; figures follow this host's wake-up latency
//   none    the scheduler decides (what an unpinned application sees; the least repeatable here)
// With a remote server only the client side is pinned.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { usageError } from './errors.js';

export const PLACEMENTS = ['shared', 'split', 'none'];
// Chosen from A/A measurements on the project's 2-core VM (docs/measuring.md, "CPU placement").
export const DEFAULT_PLACEMENT = 'shared';

/**
 * The placement of a run that names none: shared, but split for an open schedule (--rate), whose
 * arrivals would otherwise wait for the CPU behind the server's work
 * (docs/history/2026-11-26-rate.md#2026-11-26---rate-an-open-schedule-issue-37).
 */
export const defaultPlacement = ({ openSchedule = false } = {}) => (openSchedule ? 'split' : DEFAULT_PLACEMENT);

export function parsePlacement(value) {
  const v = String(value).trim();
  if (!PLACEMENTS.includes(v)) throw usageError(`--cpus must be one of ${PLACEMENTS.join(', ')}, not '${value}'`);
  return v;
}

let tasksetChecked = null;
/** Is `taskset` there and allowed to pin? */
export function canPin() {
  if (tasksetChecked === null) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetChecked = true;
    } catch {
      tasksetChecked = false;
    }
  }
  return tasksetChecked;
}

/**
 * The CPU sets of a placement on this machine (pure: the CPU count and the facts are arguments).
 * Returns { mode, client, server, harness, note } with CPU lists as taskset takes them ('0', '1',
 * '1-3') or null where nothing is pinned; `mode` falls back to 'none' (with a note) when the
 * placement cannot be applied here.
 */
export function planPlacement(mode, { cpuCount = cpus().length, embedded = true, pinning = true } = {}) {
  const none = (note) => ({ mode: 'none', requested: mode, client: null, server: null, harness: null, note });
  if (mode === 'none') return none(null);
  if (!pinning) return none(`--cpus ${mode} needs taskset (util-linux): the scheduler decides`);
  const rest = cpuCount > 2 ? `1-${cpuCount - 1}` : '1';
  if (mode === 'split') {
    if (cpuCount < 2) return none('--cpus split needs two CPUs: the scheduler decides');
    return { mode, requested: mode, client: '0', server: embedded ? '1' : null, harness: rest, note: null };
  }
  return { mode, requested: mode, client: '0', server: embedded ? '0' : null, harness: cpuCount > 1 ? rest : null, note: null };
}

/** Pin a process and all its threads (threads started later inherit it). Returns false if it failed. */
export function pin(pid, cpuList) {
  if (!cpuList || !pid) return true;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Pin a driver process: its main (JavaScript) thread on `mainCpus`, its other threads (V8's garbage
 * collection and compiler helpers, libuv's pool) on `helperCpus`. Threads it starts later inherit
 * the main thread's CPUs, so call it again after the process has set up (threads already placed
 * are skipped via `placed`).
 */
export function pinThreads(pid, mainCpus, helperCpus, placed = new Set()) {
  if (!pid || !mainCpus) return;
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return;
  }
  for (const tid of tids) {
    if (placed.has(tid)) continue;
    const cpusOf = tid === pid ? mainCpus : (helperCpus ?? mainCpus);
    try {
      execFileSync('taskset', ['-p', '-c', cpusOf, String(tid)], { stdio: 'ignore' });
      placed.add(tid);
    } catch { /* the thread ended */ }
  }
}

/** Pin a process's main thread alone (its other threads stay where they are). Returns false if it failed. */
export function pinMainThread(pid, cpuList) {
  if (!cpuList || !pid) return true;
  try {
    execFileSync('taskset', ['-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** How the results and the header describe a placement. */
export function describePlacement(p) {
  if (!p || p.mode === 'none') return 'cpus none (scheduler)';
  return p.mode === 'shared'
    ? `cpus shared (drivers${p.server ? ' + server' : ''} on CPU ${p.client}${p.harness ? `, harness on ${p.harness}` : ''})`
    : `cpus split (drivers on CPU ${p.client}${p.server ? `, server on ${p.server}` : ''}${p.harness ? `, harness on ${p.harness}` : ''})`;
}
