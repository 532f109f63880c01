// CPU placement (--cpus): where the driver processes, the embedded server and the harness run,
// applied to every driver alike with taskset and recorded in the results. The modes, and why
// `shared` is the default: docs/measuring.md, "CPU placement".
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { usageError } from './errors.js';

export const PLACEMENTS = ['shared', 'split', 'none'];
export const DEFAULT_PLACEMENT = 'shared';

// Split for an open schedule (--rate), whose arrivals would otherwise wait behind the server's work
// (docs/history/2026-11-26-rate.md#2026-11-26---rate-an-open-schedule-issue-37).
export const defaultPlacement = ({ openSchedule = false } = {}) => (openSchedule ? 'split' : DEFAULT_PLACEMENT);

export function parsePlacement(value) {
  const v = String(value).trim();
  if (!PLACEMENTS.includes(v)) throw usageError(`--cpus must be one of ${PLACEMENTS.join(', ')}, not '${value}'`);
  return v;
}

let tasksetChecked = null;
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
 * Pure: { mode, requested, client, server, harness, note }, CPU lists as taskset takes them ('0',
 * '1-3') or null where unpinned; `mode` falls back to 'none' (with a note) where it cannot apply.
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

/** JavaScript thread on `mainCpus`, the others on `helperCpus`; new threads inherit the main one's: call again once set up. */
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

export function describePlacement(p) {
  if (!p || p.mode === 'none') return 'cpus none (scheduler)';
  return p.mode === 'shared'
    ? `cpus shared (drivers${p.server ? ' + server' : ''} on CPU ${p.client}${p.harness ? `, harness on ${p.harness}` : ''})`
    : `cpus split (drivers on CPU ${p.client}${p.server ? `, server on ${p.server}` : ''}${p.harness ? `, harness on ${p.harness}` : ''})`;
}
