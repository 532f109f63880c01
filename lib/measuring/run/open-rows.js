// Opens a bench's rows, one driver at a time: each process's connections (or pool) and warm-up;
// --replay's processes two at a time, one on the harness's CPU.
import { round3 } from '../../common/stats.js';
import { unlessAborted } from '../../common/timers.js';
import { notApplicableReason } from '../bench/plan.js';
import { benchConcurrency, naRow } from './rows.js';

export async function openRows(cells, { bench, processes, context, settings, level, windowS, signal, fail, jitWait }) {
  const { warmup, callTimeoutMs, lead } = settings;
  // --rtt held in the driver processes: the hold the bench's first row opened tuned on its driver
  // (held-tuning.js), which every row takes; the reference row (the baseline's) then opens first.
  const held = settings.network?.rttMs > 0 && settings.network.via === 'process';
  const reference = held ? cells.find((c) => c.driver.name === settings.baseline && !c.owner) : null;
  const rows = [...(reference ? [reference] : []), ...cells.filter((c) => !c.owner && c !== reference)];
  const opening = {
    bench, processes, context, settings, windowS, signal, jitWait, held, warmup, callTimeoutMs, lead,
    concurrency: benchConcurrency(bench, level),
    warmupOps: settings.replay?.warmupOps,
    hold: null,
  };
  // A bare-loop row (calibrate) is opened with the row whose processes it shares.
  for (const cell of [...rows, ...cells.filter((c) => c.owner)]) {
    signal?.throwIfAborted();
    if (cell.owner) {
      if (cell.owner.row) cell.row ??= { ...cell.owner.row, driver: cell.driver.name };
      else Object.assign(cell, { handles: cell.owner.handles, protocol: cell.owner.protocol, pool: cell.owner.pool });
      continue;
    }
    try {
      await openCopies(cell, opening);
    } catch (err) {
      await fail(cell, err);
    }
  }
}

/**
 * --replay: a warm-up is a number of operations and the windows are sized afterwards, so processes warm
 * up two at a time, the second on the harness's CPU (idle meanwhile). Every row warms the same share of
 * its processes there, so that what this does to a process's later speed is the same in every row.
 */
async function openCopies(cell, b) {
  const total = cell.copies * cell.workers;
  const inPairs = b.warmupOps && !b.held && cell.workers === 1 && b.processes.canWarmAside?.();
  for (let copy = 0; copy < total;) {
    if (inPairs && copy + 1 < total) {
      // Both settle before either is kept or fails the row: no warm-up is left running unseen.
      const both = await Promise.allSettled([openCopy(cell, copy, b), openCopy(cell, copy + 1, b, true)]);
      const failed = both.find((p) => p.status === 'rejected');
      if (failed) {
        // The other's connections are closed with the failed row's (closeRows).
        for (const p of both) if (p.status === 'fulfilled') cell.handles.push(p.value.handle);
        throw failed.reason;
      }
      if (!keepCopy(cell, copy, both[0].value, b) || !keepCopy(cell, copy + 1, both[1].value, b)) break;
      copy += 2;
    } else {
      if (!keepCopy(cell, copy, await openCopy(cell, copy, b), b)) break;
      copy += 1;
    }
  }
}

/** One of the row's processes: its connections and its warm-up; `aside`, on the harness's CPU. */
async function openCopy(cell, copy, b, aside = false) {
  const { bench, processes, context, settings, signal, warmup, callTimeoutMs, warmupOps } = b;
  const handle = await unlessAborted(processes.get(cell.driver, copy), signal);
  // --warmup is the row's, shared among its processes; each then settles (warm-up-loops.js).
  const opened = await unlessAborted(handle.turn('open', {
    bench: bench.name, concurrency: b.concurrency, warmup: warmup / cell.copies, settle: settings.warmupSettles !== false, awaitCompiles: b.jitWait, callTimeoutMs, setupData: context.setupData,
    replay: bench.replaySets?.[cell.driver.name], // --replay: the set this row's connections replay
    warmupOps,
    fixed: cell.fixedWindow, windowS: b.windowS, lead: b.lead, // its windows sized as the row's first opened process's (then side by side, then from its rounds)
    held: b.hold ? { holdMs: b.hold.holdMs, measure: copy === 0 } : undefined, // --rtt: the bench's hold
  },
  callTimeoutMs + warmup * 1000 + 30000 + (warmupOps ?? 0) * 2, { aside }), signal);
  return { handle, opened };
}

/** Keeps an opened process in its row; false when the driver's own plan (with the bench's set-up data) says n/a. */
function keepCopy(cell, copy, { handle, opened }, b) {
  cell.handles.push(handle);
  if (notApplicableReason(opened)) {
    cell.row = naRow(cell.driver, notApplicableReason(opened));
    return false;
  }
  cell.protocol = opened.protocol;
  cell.fixedWindow ??= opened.fixed;
  cell.warmupOps ??= opened.warmupOps; // the same in every process of the row
  if (copy === 0 && opened.held) {
    cell.held = opened.held;
    b.hold ??= opened.held;
  }
  (cell.warmupSeconds ??= []).push(round3(opened.warmupSeconds));
  cell.compileWaitS.warmup += opened.compileWaitSeconds ?? 0;
  cell.pool = opened.pool;
  return true;
}
