// Measures one bench on every driver in interleaved rounds (RMIT): each round gives every driver
// one window (an unmeasured lead-in, then the measured part), in a fresh random order, while every
// other driver process is stopped. A driver's row is measured in several processes of its own
// (settings.processes): each round's window goes to one of them, so that the row's figure is an
// average over processes, which differ from each other by a few per cent (docs/measuring.md, "Processes differ").
// The parent only coordinates: it prepares and checks the bench's tables through its admin
// connection between windows, and reads the embedded server's CPU time.
import { performance } from 'node:perf_hooks';
import { notApplicableReason, planFor } from '../bench/plan.js';
import { redact } from '../../common/redact.js';
import { DriverProcessError } from '../processes/driver-handle.js';
import { ServerLost } from '../../server/session.js';
import { processCpuUs } from '../processes/proc-cpu.js';
import { summarizeWindows } from '../figures/windows.js';
import { median, round3 } from '../../common/stats.js';
import { fixedWindowSizing } from '../figures/window-sizing.js';
import { pairedDelta } from '../figures/paired-delta.js';
import { summarizeRate } from '../figures/rate.js';
import { combineClosed, combineWindows } from '../figures/combine.js';

// With --precision, rounds are added in batches (and precision judged only between batches), so
// that stopping follows the interval's width over many rounds, not one lucky round.
export const PRECISION_BATCH = 12;

/**
 * Has every row's paired Δ against the bench's reference (the baseline, else the first driver that
 * runs) reached ±`precisionPct`, its interval taken at `level`? True when there is nothing to compare.
 */
export function preciseEnough(cells, baseline, precisionPct, level = 0.95) {
  const ref = cells.find((c) => c.driver.name === baseline) ?? cells[0];
  if (!ref) return true;
  return cells.filter((c) => c !== ref).every((c) => {
    const d = pairedDelta(c.windows, ref.windows, level);
    return Number.isFinite(d?.halfWidthPct) && d.halfWidthPct <= precisionPct;
  });
}

// A bench whose time budget runs out still gets this many rounds (and its interval).
export const MIN_ROUNDS = 24;

/**
 * How many rounds to run: `rounds`, or with a precision target, on in batches until it holds or
 * `maxRounds`; with a time budget, no new round once `elapsedS` is past it (after MIN_ROUNDS).
 */
export function moreRounds(r, { rounds, precision, maxRounds, precisionLevel, baseline, budget }, cells, elapsedS = 0) {
  if (budget && r >= MIN_ROUNDS && elapsedS > budget * cells.length) return false;
  if (r < rounds) return true;
  if (!precision || r >= maxRounds) return false;
  return (r - rounds) % PRECISION_BATCH !== 0 || !preciseEnough(cells, baseline, precision, precisionLevel);
}

const errorText = (err) => redact(err?.sqlMessage || err?.message || String(err));

/** A fresh random order (Fisher-Yates). */
export function shuffle(list, random = Math.random) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Reject as soon as `signal` aborts, whatever `promise` does. */
function unlessAborted(promise, signal) {
  if (!signal) return promise;
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * Which of a row's `copies` processes gives its window in round r: within every block of `copies`
 * rounds each process once, in a random order, so each gets the same share of the rounds and of
 * every stretch of the host's drift.
 */
export function processSchedule(copies, random = Math.random) {
  const order = [];
  return (r) => {
    while (order.length <= r) order.push(...shuffle([...Array(copies).keys()], random));
    return order[r];
  };
}

/** How many processes measure a bench's row: one when its plan keeps figures of its own across windows. */
export const processesFor = (plan, settings) => (plan.summarize ? 1 : Math.max(1, settings.processes ?? 1));

/** How many worker processes share each window of a row (--workers): one when its plan keeps figures of its own. */
export const workersFor = (plan, settings) => (plan.summarize ? 1 : Math.max(1, settings.workers ?? 1));

const naRow = (cell, reason) => ({ driver: cell.driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: reason });

// A bench may fix its own connections (pool_select_users); else the run's --concurrency.
const benchConcurrency = (bench, settings) => bench.concurrency ?? settings.concurrency;

/** Connections, pool and warm-up in each driver's own process, one driver at a time. */
async function openCells(cells, { bench, processes, context, settings, signal, fail }) {
  const { warmup, callTimeoutMs, time, lead } = settings;
  // --replay: each process warms up for this many operations (warm-up.js), not a time.
  const warmupOps = settings.replay?.warmupOps;
  const concurrency = benchConcurrency(bench, settings);
  // --rtt held in the driver processes: the hold the bench's first row opened tuned on its driver
  // (held-tuning.js), which every row takes; the reference row (the baseline's) then opens first.
  let benchHold = null;
  const held = settings.network?.rttMs > 0 && settings.network.via === 'process';
  const reference = held ? cells.find((c) => c.driver.name === settings.baseline && !c.host) : null;
  const rows = [...(reference ? [reference] : []), ...cells.filter((c) => !c.host && c !== reference)];
  // A bare-loop row (calibrate) is opened with the row whose processes it shares.
  for (const cell of [...rows, ...cells.filter((c) => c.host)]) {
    signal?.throwIfAborted();
    if (cell.host) {
      if (cell.host.row) cell.row ??= { ...cell.host.row, driver: cell.driver.name };
      else Object.assign(cell, { handles: cell.host.handles, protocol: cell.host.protocol, pool: cell.host.pool });
      continue;
    }
    // One of the row's processes: its connections and its warm-up; `aside`, on the harness's CPU.
    const openCopy = async (copy, aside = false) => {
      const handle = await unlessAborted(processes.get(cell.driver, copy), signal);
      // --warmup is the row's, shared among its processes; each then warms up until it is up to
      // speed (warm-up.js), and in its lead-ins.
      const opened = await unlessAborted(handle.turn('open', {
        bench: bench.name, concurrency, warmup: warmup / cell.copies, settle: settings.warmupSettles !== false, awaitCompiles: settings.jit === 'wait', callTimeoutMs, setupData: context.setupData,
        replay: bench.replaySets?.[cell.driver.name], // --replay: the set this row's connections replay
        warmupOps, // --replay: the operations each process warms up for (warm-up.js)
        fixed: cell.fixedWindow, time, lead, // its windows sized as the row's first opened process's (then side by side, then from its rounds)
        held: benchHold ? { holdMs: benchHold.holdMs, measure: copy === 0 } : undefined, // --rtt: the bench's hold
      },
        callTimeoutMs + warmup * 1000 + 30000 + (warmupOps ?? 0) * 2, { aside }), signal);
      return { handle, opened };
    };
    // Keeps an opened process in its row; false when the driver's own plan says n/a.
    const keep = (copy, { handle, opened }) => {
      cell.handles.push(handle);
      if (notApplicableReason(opened)) { // the driver's own plan, with the bench's set-up data, says n/a
        cell.row = naRow(cell, notApplicableReason(opened));
        return false;
      }
      cell.protocol = opened.protocol;
      cell.fixedWindow ??= opened.fixed;
      cell.warmupOps ??= opened.warmupOps; // the same in every process of the row
      if (copy === 0 && opened.held) {
        cell.held = opened.held;
        benchHold ??= opened.held;
      }
      (cell.warmupSeconds ??= []).push(round3(opened.warmupSeconds));
      cell.compileWaitS.warmup += opened.compileWaitSeconds ?? 0;
      cell.pool = opened.pool;
      return true;
    };
    try {
      const total = cell.copies * cell.workers;
      // --replay: a process's warm-up is a number of operations, the same program in every process
      // (same-program.js), and the rows' windows are sized side by side afterwards; so a row's
      // processes warm up two at a time, the second of each pair on the harness's CPU, which only
      // waits meanwhile. Every row warms the same share of its processes there, so that what this
      // does to a process's later speed is the same in every row.
      const inPairs = warmupOps && !held && cell.workers === 1 && processes.canWarmAside?.();
      for (let copy = 0; copy < total;) {
        if (inPairs && copy + 1 < total) {
          // Both settle before either is kept or fails the row: no warm-up is left running unseen.
          const both = await Promise.allSettled([openCopy(copy), openCopy(copy + 1, true)]);
          const failed = both.find((p) => p.status === 'rejected');
          if (failed) {
            // The other's connections are closed with the failed row's (closeCells).
            for (const p of both) if (p.status === 'fulfilled') cell.handles.push(p.value.handle);
            throw failed.reason;
          }
          if (!keep(copy, both[0].value) || !keep(copy + 1, both[1].value)) break;
          copy += 2;
        } else {
          if (!keep(copy, await openCopy(copy))) break;
          copy += 1;
        }
      }
    } catch (err) {
      await fail(cell, err);
    }
  }
}

// A process's first two windows run slower than its later ones, while V8 compiles the window's own
// path (`do`, the first bench of a run: -45 % and -35 %; later benches, whose processes have run
// windows, within a few per cent). Sized on them, a `do` row got windows 1.8 times shorter than its
// twin's. So a process runs windows until it has run SETTLED_AFTER_WINDOWS in all, then
// SIZING_WINDOWS more, which size: with one a process, on a host whose windows scattered by 6 %,
// an A/A row's windows came out 1.35 times its twin's.
const SETTLED_AFTER_WINDOWS = 2;
const SIZING_WINDOWS = 2;

/**
 * --replay: the rows' windows sized side by side. A replayed row runs windows of a fixed number of
 * operations, about `time` each, and a window costs a little besides its operations (a row with
 * half its twin's windows read 1-3 % slower; docs/measuring-history.md, 2026-11-26), so rows of one
 * bench compare fairly only with windows of the same length in time. Sized from each row's first
 * warm-up, taken minutes apart on a host whose speed drifts, an A/A row once got windows 1.8 times
 * its twin's and read 2.6 % faster. So after the warm-ups every process of every row runs
 * windows of its warm-up's size, the rows in a fresh random order each time, not kept; each row's
 * windows are then sized from the median time per operation of its own, and every process of the
 * row takes that size. Sets `fixedWindow` on the rows it sized.
 */
async function sizeWindowsSideBySide(cells, { settings, windowTimeoutMs, signal, fail }) {
  const rows = cells.filter((c) => !c.row && !c.host && c.fixedWindow);
  if (rows.length === 0) return;
  const { time, lead } = settings;
  const msPerOp = new Map(rows.map((c) => [c, []]));
  const left = new Map(rows.flatMap((c) => Array.from({ length: c.copies }, (_, copy) => {
    const handle = c.handles[copy * c.workers];
    return [handle, Math.max(0, SETTLED_AFTER_WINDOWS - handle.windowsRun) + SIZING_WINDOWS];
  })));
  while (rows.some((c) => !c.row && c.handles.some((h) => left.get(h) > 0))) {
    for (let copy = 0; copy < Math.max(...rows.map((c) => c.copies)); copy++) {
      for (const cell of shuffle(rows)) {
        const handle = cell.handles[copy * cell.workers];
        if (cell.row || copy >= cell.copies || !(left.get(handle) > 0)) continue;
        signal?.throwIfAborted();
        try {
          const w = await unlessAborted(handle.turn('window', { lead, time, fixed: cell.fixedWindow }, windowTimeoutMs), signal);
          left.set(handle, left.get(handle) - 1);
          if (left.get(handle) < SIZING_WINDOWS && w.opsPerSec > 0) msPerOp.get(cell).push(1000 / w.opsPerSec);
        } catch (err) {
          left.set(handle, 0);
          await fail(cell, err);
        }
      }
    }
  }
  for (const cell of rows) {
    if (!cell.row && msPerOp.get(cell).length) cell.fixedWindow = fixedWindowSizing(median(msPerOp.get(cell)), { time, lead });
  }
}

// --replay: the sizing windows run while V8 still compiles the drivers' functions anew for a bench's
// windows (a row's first rounds ran at 0.63-0.78 of its median speed on `batch`, `insert`,
// `pipelining` and `execute`), so the rows' windows are sized again at RESIZE_AT_ROUND from the
// median time per operation of their windows since RESIZE_FROM_ROUND: rounds taken side by side,
// each row's in all its processes, past those first windows.
const RESIZE_FROM_ROUND = 8;
const RESIZE_AT_ROUND = 24;

/** Sizes each fixed-window row's windows again from its windows of rounds `settled` and later (sets `fixedWindow`). */
function resizeFromRounds(cells, { settled, time, lead }) {
  for (const cell of cells.filter((c) => !c.row && !c.host && c.fixedWindow)) {
    const msPerOp = cell.windows.filter((w) => w.round >= settled && w.opsPerSec > 0).map((w) => 1000 / w.opsPerSec);
    if (msPerOp.length) cell.fixedWindow = fixedWindowSizing(median(msPerOp), { time, lead });
  }
}

/**
 * The rounds: each gives every driver still measured one window, in a fresh random order. Returns
 * the orders, whether the time budget ended them before `rounds` (not when no driver was left), and
 * the budget per driver they had (`pace`: a paced run's clock, pace.js).
 */
async function runRounds(cells, { bench, admin, context, settings, serverPid, signal, progress, fail, pace }) {
  const { rounds, time, lead, callTimeoutMs } = settings;
  const awaitCompiles = settings.jit === 'wait';
  // --rate: each window runs the open schedule at this rate (open-loop.js) instead of a closed loop.
  const rate = settings.openRate ? { perSec: settings.openRate.askedPerSec, schedule: settings.openRate.schedule, seed: settings.openRate.seed, latencyLimitMs: settings.openRate.latencyLimitMs } : null;
  // A rate run's closed-loop pass waits for its replies as its open schedule does (busyPoll in ticker.js).
  const poll = Boolean(settings.rate) && !rate;
  const order = [];
  let budgetStopped = false;
  const windowTimeoutMs = callTimeoutMs + (lead + time) * 1000 + 10000;
  await sizeWindowsSideBySide(cells, { settings, windowTimeoutMs, signal, fail });
  // A paced run (pace.js) gives this bench's rounds their share of what is left of its time.
  const budget = pace ? pace.roundsStart(cells.filter((c) => !c.row).length) : settings.budget;
  const budgeted = { ...settings, budget };
  const start = performance.now();
  // The time driver processes spent waiting for V8's compiles after their windows is not the
  // bench's: the budget counts without it.
  let compileWaitS = 0;
  const elapsedS = () => (performance.now() - start) / 1000 - compileWaitS;
  for (let r = 0; ; r++) {
    if (r === RESIZE_AT_ROUND) resizeFromRounds(cells, { settled: RESIZE_FROM_ROUND, time: settings.time, lead: settings.lead });
    const roundOrder = shuffle(cells.filter((c) => !c.row));
    if (roundOrder.length === 0) break;
    if (!moreRounds(r, budgeted, roundOrder, elapsedS())) {
      budgetStopped = r < rounds;
      break;
    }
    order.push(roundOrder.map((c) => c.driver.name));
    progress?.round?.(bench, r, r < rounds ? rounds : settings.maxRounds);
    for (const cell of roundOrder) {
      signal?.throwIfAborted();
      try {
        await bench.beforeWindow?.(admin, context);
        const copy = cell.processFor(r);
        const server0 = processCpuUs(serverPid);
        // --workers: the window runs in the group's processes at once, each with its share of a rate.
        const group = cell.handles.slice(copy * cell.workers, (copy + 1) * cell.workers);
        const parts = await unlessAborted(Promise.all(group.map((handle, k) => handle.turn('window', {
          lead, time, awaitCompiles, bare: Boolean(cell.host), poll, fixed: (cell.host ?? cell).fixedWindow, rate: rate && group.length > 1 ? { ...rate, perSec: rate.perSec / group.length, seed: rate.seed + 104729 * k } : rate,
        }, windowTimeoutMs))), signal);
        const w = parts.length > 1 ? combineWindows(parts) : parts[0];
        const server1 = processCpuUs(serverPid);
        // The bench's own check of what the driver wrote (rows inserted, money conserved).
        await bench.verify?.(admin, context, w.workload);
        const { compileWaitMs = 0, ...figures } = w;
        compileWaitS += compileWaitMs / 1000;
        cell.compileWaitS.windows += compileWaitMs / 1000;
        cell.windows.push({ round: r, process: copy, ...figures, serverCpuUs: server0 === null || server1 === null ? null : server1 - server0 });
      } catch (err) {
        await fail(cell, err);
      }
    }
  }
  pace?.roundsEnd();
  return { order, budgetStopped, budget };
}

/** Close each measured driver's connections (in each of its processes) and make its row from its windows. */
async function closeCells(cells, { concurrency, jitWait, rate, signal, fail }) {
  for (const cell of cells.filter((c) => c.handles.length && !c.row)) {
    signal?.throwIfAborted();
    const parts = [];
    try {
      // Each process sends its latencies' histogram, merged with the row's others. A bare-loop row's
      // processes are closed by the row it shares them with; it times no latency.
      if (!cell.host) for (const handle of cell.handles) parts.push(await unlessAborted(handle.turn('close', {}, 30000), signal));
    } catch (err) {
      await fail(cell, err);
      continue;
    }
    const closed = cell.host ? { operations: cell.windows.reduce((n, w) => n + w.ops, 0), latency: null }
      : parts.length > 1 ? combineClosed(parts) : parts[0];
    cell.row = {
      driver: cell.driver.name,
      protocol: cell.protocol,
      ok: true,
      status: 'ok',
      error: null,
      ...summarizeWindows(cell.windows),
      connections: concurrency * cell.workers,
      pool: cell.pool ? { size: concurrency, callers: concurrency } : undefined,
      // --rtt held in the driver processes: the bench's hold each way, and what it added on this row's driver (held-tuning.js).
      ...(cell.held ? { held: cell.held } : {}),
      // --workers: each window ran in this many processes at once, each with its own connections (or pool).
      ...(cell.workers > 1 ? { workers: cell.workers } : {}),
      operations: closed.operations,
      latency: closed.latency,
      // --rate: the rate achieved, skipped and late arrivals, and the schedule lag (latency from intended starts).
      ...(rate ? { rate: summarizeRate(cell.windows.map((w) => w.rate), rate.perSec), lag: closed.lag } : {}),
      // A bench's own figures for the row (e.g. a payments workload's retries, deadlocks and p95).
      workload: closed.workload,
      processRssMB: closed.rssMB,
      processes: cell.handles.length / cell.workers,
      // Each process's warm-up (warm-up.js: until its time per operation stopped improving).
      warmupSeconds: cell.warmupSeconds,
      warmupOps: cell.warmupOps, // --replay: the operations each process warmed up for
      // What the row's processes waited for V8 to finish compiling, in their warm-ups and after
      // their windows (jit.js); null where they could not wait.
      compileWaitSeconds: jitWait && cell.handles.every((h) => h.awaitsCompiles)
        ? { warmup: round3(cell.compileWaitS.warmup), windows: round3(cell.compileWaitS.windows) } : null,
    };
  }
  // A driver failed part-way: its processes may hold open connections or a half-read reply.
  for (const cell of cells) {
    if (!cell.row || cell.row.ok) continue;
    for (const handle of cell.handles.filter((h) => h.alive)) {
      await handle.turn('close', {}, 10000).catch(() => handle.kill());
    }
  }
}

/**
 * @param {object} p
 * @param {object} p.bench the bench module
 * @param {Array} p.drivers the adapters, in --drivers order
 * @param {{ get(driver, copy): Promise<DriverHandle> }} p.processes a driver's processes (settings.processes of each)
 * @param {object} p.admin the harness's own connection (set-up and checks, never measured)
 * @param {object} p.context { schema, server, options }
 * @param {object} p.settings { rounds, time, lead, warmup, concurrency, callTimeoutMs, processes }
 * @param {number} [p.serverPid] the embedded mariadbd, for its CPU time per operation
 * @param {AbortSignal} [p.signal]
 * @param {object} [p.progress] { round(bench, r, rounds) }
 * @param {() => Promise<boolean>} p.serverAlive
 * @param {object} [p.pace] a paced run's clock (pace.js)
 * @returns {Promise<{ rows: Array, order: string[][], budgetStopped: boolean, budget: number|null }>} one row per driver, in driver order
 */
export async function measureBench({ bench, drivers, processes, admin, context, settings, serverPid, signal, progress, serverAlive, pace }) {
  const cells = drivers.map((driver) => {
    const plan = planFor(bench, driver, context);
    const copies = processesFor(plan, settings);
    return { driver, plan, copies, workers: workersFor(plan, settings), processFor: processSchedule(copies), handles: [], windows: [], row: null, compileWaitS: { warmup: 0, windows: 0 } };
  });
  // calibrate's bare-loop row of a driver (driver.bareLoopOf) runs in that driver's row's processes,
  // on its connections, each round in the same process as the harness's window: the two sides
  // differ by the harness alone, not also by two draws of processes (docs/measuring.md, "Calibrating the harness").
  for (const cell of cells.filter((c) => c.driver.bareLoopOf)) {
    const host = cells.find((c) => c.driver.name === cell.driver.bareLoopOf && !c.driver.bareLoopOf);
    if (!host) throw new Error(`${cell.driver.name}: no row ${cell.driver.bareLoopOf} to share processes with`);
    Object.assign(cell, { host, copies: host.copies, workers: host.workers, processFor: host.processFor });
    host.guest = cell;
  }
  // A cell that fails gets its failed row; a failure that is the server's ends the bench. Two rows
  // that share processes fail together: a failed window closes the process's connections.
  const fail = async (cell, err) => {
    if (signal?.aborted) throw signal.reason;
    cell.row = failedRow(cell, errorText(err));
    const partner = cell.host ?? cell.guest;
    if (partner && !partner.row) partner.row = failedRow(partner, `${errorText(err)} (in ${cell.driver.name}, whose processes it shares)`);
    if (!(err instanceof DriverProcessError) && !(await serverAlive())) {
      throw new ServerLost(`lost the server during ${bench.name} on ${cell.driver.name}: ${errorText(err)}`);
    }
  };

  for (const cell of cells) if (notApplicableReason(cell.plan)) cell.row = naRow(cell, notApplicableReason(cell.plan));
  // Start every process the bench needs at once (each takes about 0.4 s to start, mostly loading);
  // one that fails to start is started again, and fails its row, when it is opened.
  await unlessAborted(Promise.allSettled(cells.filter((c) => !c.row && !c.host)
    .flatMap((c) => Array.from({ length: c.copies * c.workers }, (_, copy) => processes.get(c.driver, copy)))), signal);
  await openCells(cells.filter((c) => !c.row), { bench, processes, context, settings, signal, fail });
  const { order, budgetStopped, budget } = await runRounds(cells, { bench, admin, context, settings, serverPid, signal, progress, fail, pace });
  await closeCells(cells, { concurrency: benchConcurrency(bench, settings), jitWait: settings.jit === 'wait', rate: settings.openRate ? { perSec: settings.openRate.askedPerSec } : null, signal, fail });
  return { rows: cells.map((c) => c.row), order, budgetStopped, budget };
}

function failedRow(cell, error) {
  return { driver: cell.driver.name, protocol: cell.protocol ?? cell.plan.protocol ?? 'n/a', ok: false, status: 'failed', error };
}
