// A bench's rows: how many processes and workers measure each, and the row each ends with, measured
// (from its windows), n/a or failed.
import { round3 } from '../../common/stats.js';
import { planFor } from '../bench/plan.js';
import { processSchedule } from './schedule.js';
import { summarizeWindows } from '../figures/row-figures.js';
import { summarizeRate } from '../figures/rate-figures.js';

/** How many processes measure a bench's row: one when its plan keeps figures of its own across windows. */
export const processesFor = (plan, settings) => (plan.summarize ? 1 : Math.max(1, settings.processes ?? 1));

/** How many worker processes share each window of a row (--workers): one when its plan keeps figures of its own. */
export const workersFor = (plan, settings) => (plan.summarize ? 1 : Math.max(1, settings.workers ?? 1));

// A bench may fix its own connections (pool_select_users); else the level's concurrency.
export const benchConcurrency = (bench, level) => bench.concurrency ?? level;

export const naRow = (driver, reason) => ({ driver: driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: reason });

export const failedRow = (driver, error, protocol = 'n/a') => ({ driver: driver.name, protocol, ok: false, status: 'failed', error });

export const failedRowOf = (cell, error) => failedRow(cell.driver, error, cell.protocol ?? cell.plan.protocol ?? 'n/a');

/** A bench's cells at one level and rate, one per driver. A bare-loop cell (calibrate) is its `owner` cell's `sharer`. */
export function cellsOf(bench, drivers, context, settings) {
  const cells = drivers.map((driver) => {
    const plan = planFor(bench, driver, context);
    const copies = processesFor(plan, settings);
    return { driver, plan, copies, workers: workersFor(plan, settings), processFor: processSchedule(copies), handles: [], windows: [], row: null, compileWaitS: { warmup: 0, windows: 0 } };
  });
  // A bare-loop row runs in its driver's row's processes, each round in the same one: the two sides differ
  // by the harness alone, not also by two draws of processes (docs/measuring.md, "Calibrating the harness").
  for (const cell of cells.filter((c) => c.driver.bareLoopOf)) {
    const owner = cells.find((c) => c.driver.name === cell.driver.bareLoopOf && !c.driver.bareLoopOf);
    if (!owner) throw new Error(`${cell.driver.name}: no row ${cell.driver.bareLoopOf} to share processes with`);
    Object.assign(cell, { owner, copies: owner.copies, workers: owner.workers, processFor: owner.processFor });
    owner.sharer = cell;
  }
  return cells;
}

/** Pure: a measured row from its windows and its processes' combined closing reports (`closed`). */
export function rowFromWindows(cell, closed, { concurrency, jitWait, rate }) {
  return {
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
    ...(cell.workers > 1 ? { workers: cell.workers } : {}),
    operations: closed.operations,
    latency: closed.latency,
    ...(rate ? { rate: summarizeRate(cell.windows.map((w) => w.rate), rate.perSec), lag: closed.lag } : {}),
    workload: closed.workload,
    processRssMB: closed.rssMB,
    processes: cell.handles.length / cell.workers,
    warmupSeconds: cell.warmupSeconds,
    warmupOps: cell.warmupOps,
    // Null where the processes could not wait for V8's compiles (jit.js).
    compileWaitSeconds: jitWait && cell.handles.every((h) => h.awaitsCompiles)
      ? { warmup: round3(cell.compileWaitS.warmup), windows: round3(cell.compileWaitS.windows) } : null,
  };
}
