// Measures one bench on every driver in interleaved rounds (RMIT): each round gives every driver
// one window (an unmeasured lead-in, then the measured part), in a fresh random order, while every
// other driver process is stopped; a row's windows are spread over several processes of its own
// (docs/measuring.md, "Processes differ"). The parent only coordinates: it prepares and checks the
// bench's tables through its admin connection between windows, and reads the server's CPU time.
import { performance } from 'node:perf_hooks';
import { notApplicableReason } from '../bench/plan.js';
import { errorText } from '../../common/redact.js';
import { unlessAborted } from '../../common/timers.js';
import { sum } from '../../common/stats.js';
import { DriverProcessError } from '../processes/driver-handle.js';
import { ServerLost } from '../../common/errors.js';
import { processCpuUs } from '../processes/proc-cpu.js';
import { combineClosed } from '../figures/combine.js';
import { combineWindows } from '../figures/window-fields.js';
import { moreRounds, shuffle } from './schedule.js';
import { benchConcurrency, cellsOf, failedRowOf, naRow, rowFromWindows } from './rows.js';
import { openRows } from './open-rows.js';
import { resizeIfDue, sizeWindowsSideBySide } from './replay-sizing.js';
import { waitsForCompiles } from './jit-mode.js';
import { windowRate } from './rate-passes.js';

/**
 * The rounds: each gives every cell still measured one window, in a fresh random order. Returns
 * the orders, whether the time budget ended them before `rounds` (not when no cell was left), and
 * the budget per driver they had (`pace`: a paced run's clock, pace.js).
 */
async function runRounds(cells, { bench, admin, context, settings, windowS, serverPid, signal, progress, fail, pace, jitWait, rate }) {
  const { rounds, lead, callTimeoutMs } = settings;
  // A rate run's closed-loop pass waits for its replies as its open schedule does (busyPoll in ticker.js).
  const poll = Boolean(settings.rate) && !rate;
  const order = [];
  let budgetStopped = false;
  const windowTimeoutMs = callTimeoutMs + (lead + windowS) * 1000 + 10000;
  await sizeWindowsSideBySide(cells, { windowS, lead, windowTimeoutMs, signal, fail });
  // A paced run (pace.js) gives this bench's rounds their share of what is left of its time.
  const budget = pace ? pace.roundsStart(cells.filter((c) => !c.row).length) : settings.budget;
  const start = performance.now();
  // The time driver processes spent waiting for V8's compiles after their windows is not the
  // bench's: the budget counts without it.
  let compileWaitS = 0;
  const elapsedS = () => (performance.now() - start) / 1000 - compileWaitS;
  for (let r = 0; ; r++) {
    resizeIfDue(r, cells, { windowS, lead });
    const roundOrder = shuffle(cells.filter((c) => !c.row));
    if (roundOrder.length === 0) break;
    if (!moreRounds(r, settings, { budget, cells: roundOrder, elapsedS: elapsedS() })) {
      budgetStopped = r < rounds;
      break;
    }
    order.push(roundOrder.map((c) => c.driver.name));
    progress?.round?.(bench, r, r < rounds ? rounds : settings.maxRounds);
    for (const cell of roundOrder) {
      signal?.throwIfAborted();
      try {
        await bench.beforeWindow?.(admin, context);
        const groupIndex = cell.processFor(r); // which of the row's process groups (one process each without --workers)
        const server0 = processCpuUs(serverPid);
        // --workers: the window runs in the group's processes at once, each with its share of a rate.
        const groupHandles = cell.handles.slice(groupIndex * cell.workers, (groupIndex + 1) * cell.workers);
        const parts = await unlessAborted(Promise.all(groupHandles.map((handle, k) => handle.turn('window', {
          lead, windowS, awaitCompiles: jitWait, bare: Boolean(cell.owner), poll, fixed: (cell.owner ?? cell).fixedWindow, rate: rate && groupHandles.length > 1 ? { ...rate, perSec: rate.perSec / groupHandles.length, seed: rate.seed + 104729 * k } : rate,
        }, windowTimeoutMs))), signal);
        const w = parts.length > 1 ? combineWindows(parts) : parts[0];
        const server1 = processCpuUs(serverPid);
        // The bench's own check of what the driver wrote (rows inserted, money conserved).
        await bench.verify?.(admin, context, w.workload);
        const { compileWaitMs = 0, ...figures } = w;
        compileWaitS += compileWaitMs / 1000;
        cell.compileWaitS.windows += compileWaitMs / 1000;
        cell.windows.push({ round: r, process: groupIndex, ...figures, serverCpuUs: server0 === null || server1 === null ? null : server1 - server0 });
      } catch (err) {
        await fail(cell, err);
      }
    }
  }
  pace?.roundsEnd();
  return { order, budgetStopped, budget };
}

/** Close each measured cell's connections (in each of its processes) and make its row from its windows. */
async function closeRows(cells, { concurrency, jitWait, rate, signal, fail }) {
  for (const cell of cells.filter((c) => c.handles.length && !c.row)) {
    signal?.throwIfAborted();
    const parts = [];
    try {
      // Each process sends its latencies' histogram, merged with the row's others. A bare-loop row's
      // processes are closed by the row it shares them with; it times no latency.
      if (!cell.owner) for (const handle of cell.handles) parts.push(await unlessAborted(handle.turn('close', {}, 30000), signal));
    } catch (err) {
      await fail(cell, err);
      continue;
    }
    const closed = cell.owner ? { operations: sum(cell.windows.map((w) => w.ops)), latency: null }
      : parts.length > 1 ? combineClosed(parts) : parts[0];
    cell.row = rowFromWindows(cell, closed, { concurrency, jitWait, rate });
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
 * @param {Readonly<object>} p.settings the run's settings (resolve-run.js Settings)
 * @param {number} p.level the level's concurrency
 * @param {number} p.windowS the measured seconds of each window
 * @param {object|null} [p.benchRate] --rate: this bench's rate in this pass (rate-passes.js resolveRate); null for a closed loop
 * @param {number} [p.serverPid] the embedded mariadbd, for its CPU time per operation
 * @param {AbortSignal} [p.signal]
 * @param {object} [p.progress] { round(bench, r, rounds) }
 * @param {() => Promise<boolean>} p.serverAlive
 * @param {object} [p.pace] a paced run's clock (pace.js)
 * @returns {Promise<{ rows: Array, order: string[][], budgetStopped: boolean, budget: number|null }>} one row per driver, in driver order
 */
export async function measureBench({ bench, drivers, processes, admin, context, settings, level, windowS, benchRate = null, serverPid, signal, progress, serverAlive, pace }) {
  const cells = cellsOf(bench, drivers, context, settings);
  // A cell that fails gets its failed row; a failure that is the server's ends the bench. Two cells
  // that share processes fail together: a failed window closes the process's connections.
  const fail = async (cell, err) => {
    if (signal?.aborted) throw signal.reason;
    cell.row = failedRowOf(cell, errorText(err));
    const partner = cell.owner ?? cell.sharer;
    if (partner && !partner.row) partner.row = failedRowOf(partner, `${errorText(err)} (in ${cell.driver.name}, whose processes it shares)`);
    if (!(err instanceof DriverProcessError) && !(await serverAlive())) {
      throw new ServerLost(`lost the server during ${bench.name} on ${cell.driver.name}: ${errorText(err)}`);
    }
  };

  for (const cell of cells) if (notApplicableReason(cell.plan)) cell.row = naRow(cell.driver, notApplicableReason(cell.plan));
  // Start every process the bench needs at once, their loading overlapping; one that fails to start
  // is started again, and fails its row, when it is opened.
  await unlessAborted(Promise.allSettled(cells.filter((c) => !c.row && !c.owner)
    .flatMap((c) => Array.from({ length: c.copies * c.workers }, (_, copy) => processes.get(c.driver, copy)))), signal);
  const jitWait = waitsForCompiles(settings);
  // --rate: each window runs the open schedule at this rate (open-loop.js) instead of a closed loop.
  const rate = windowRate(benchRate);
  await openRows(cells.filter((c) => !c.row), { bench, processes, context, settings, level, windowS, signal, fail, jitWait });
  const { order, budgetStopped, budget } = await runRounds(cells, { bench, admin, context, settings, windowS, serverPid, signal, progress, fail, pace, jitWait, rate });
  await closeRows(cells, { concurrency: benchConcurrency(bench, level), jitWait, rate, signal, fail });
  return { rows: cells.map((c) => c.row), order, budgetStopped, budget };
}
