// One bench on every driver, in interleaved rounds (RMIT): its cells opened, then each round gives every
// cell still measured one window in a fresh random order while every other driver process is stopped,
// then the rows made from their windows. The loop (loop.js) drives it; the parent only coordinates.
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

/** A bench's rounds: `open()`, then `next(r)` (the cells of round r, or null when the rounds are over) and `window(cell, r)`, then `close()`. */
export class BenchRounds {
  /** `run`: the loop's; `benchRate`: resolveRate's, or null; `pace`: pace.js's, or null. */
  constructor(bench, context, { run, level, windowS, benchRate, pace }) {
    Object.assign(this, { bench, context, run, level, windowS, pace, settings: run.settings, signal: run.signal });
    this.cells = cellsOf(bench, run.drivers, context, run.settings);
    this.jitWait = waitsForCompiles(run.settings);
    this.rate = windowRate(benchRate);
    this.order = [];
    this.compileWaitS = 0; // V8's compiles awaited after windows: not the bench's time
    const { callTimeoutMs, lead } = run.settings;
    this.windowTimeoutMs = callTimeoutMs + (lead + windowS) * 1000 + 10000;
  }

  /** A cell that fails gets its failed row (and so does the cell sharing its processes); a failure that is the server's ends the bench. */
  async fail(cell, err) {
    if (this.signal?.aborted) throw this.signal.reason;
    cell.row = failedRowOf(cell, errorText(err));
    const partner = cell.owner ?? cell.sharer;
    if (partner && !partner.row) partner.row = failedRowOf(partner, `${errorText(err)} (in ${cell.driver.name}, whose processes it shares)`);
    if (!(err instanceof DriverProcessError) && !(await this.run.serverAlive())) {
      throw new ServerLost(`lost the server during ${this.bench.name} on ${cell.driver.name}: ${errorText(err)}`);
    }
  }

  /** Every process the bench needs started at once (a failed start fails its row when opened), the rows opened, the windows sized. */
  async open() {
    const { cells, run, signal } = this;
    const fail = (cell, err) => this.fail(cell, err);
    for (const cell of cells) if (notApplicableReason(cell.plan)) cell.row = naRow(cell.driver, notApplicableReason(cell.plan));
    await unlessAborted(Promise.allSettled(cells.filter((c) => !c.row && !c.owner)
      .flatMap((c) => Array.from({ length: c.copies * c.workers }, (_, copy) => run.processes.get(c.driver, copy)))), signal);
    await openRows(cells.filter((c) => !c.row), { bench: this.bench, processes: run.processes, context: this.context, settings: this.settings, level: this.level, windowS: this.windowS, signal, fail, jitWait: this.jitWait });
    await sizeWindowsSideBySide(cells, { windowS: this.windowS, lead: this.settings.lead, windowTimeoutMs: this.windowTimeoutMs, signal, fail });
    this.budget = this.pace ? this.pace.roundsStart(cells.filter((c) => !c.row).length) : this.settings.budget;
    this.start = performance.now();
  }

  /** Round r's cells in a fresh random order, or null: no cell left, or the rounds (their number, precision or budget) are done. */
  next(r) {
    resizeIfDue(r, this.cells, { windowS: this.windowS, lead: this.settings.lead });
    const roundOrder = shuffle(this.cells.filter((c) => !c.row));
    if (roundOrder.length === 0) return null;
    const elapsedS = (performance.now() - this.start) / 1000 - this.compileWaitS;
    if (!moreRounds(r, this.settings, { budget: this.budget, cells: roundOrder, elapsedS })) {
      this.budgetStopped = r < this.settings.rounds;
      return null;
    }
    this.order.push(roundOrder.map((c) => c.driver.name));
    this.run.progress?.round?.(this.bench, r, r < this.settings.rounds ? this.settings.rounds : this.settings.maxRounds);
    return roundOrder;
  }

  /** Cell's window of round r, in the processes the round gives it (--workers: several at once, each with its share of a rate). */
  async window(cell, r) {
    this.signal?.throwIfAborted();
    const { bench, context, run, rate } = this;
    try {
      await bench.beforeWindow?.(run.admin, context);
      const groupIndex = cell.processFor(r);
      const server0 = processCpuUs(run.serverPid);
      const groupHandles = cell.handles.slice(groupIndex * cell.workers, (groupIndex + 1) * cell.workers);
      // A rate run's closed-loop pass waits for its replies as its open schedule does (busyPoll in ticker.js).
      const poll = Boolean(this.settings.rate) && !rate;
      const parts = await unlessAborted(Promise.all(groupHandles.map((handle, k) => handle.turn('window', {
        lead: this.settings.lead, windowS: this.windowS, awaitCompiles: this.jitWait, bare: Boolean(cell.owner), poll, fixed: (cell.owner ?? cell).fixedWindow,
        rate: rate && groupHandles.length > 1 ? { ...rate, perSec: rate.perSec / groupHandles.length, seed: rate.seed + 104729 * k } : rate,
      }, this.windowTimeoutMs))), this.signal);
      const w = parts.length > 1 ? combineWindows(parts) : parts[0];
      const server1 = processCpuUs(run.serverPid);
      await bench.verify?.(run.admin, context, w.workload); // the bench's own check of what the driver wrote
      const { compileWaitMs = 0, ...figures } = w;
      this.compileWaitS += compileWaitMs / 1000;
      cell.compileWaitS.windows += compileWaitMs / 1000;
      cell.windows.push({ round: r, process: groupIndex, ...figures, serverCpuUs: server0 === null || server1 === null ? null : server1 - server0 });
    } catch (err) {
      await this.fail(cell, err);
    }
  }

  /** Each measured cell's connections closed and its row made: { rows (in driver order), order, budgetStop }. */
  async close() {
    this.pace?.roundsEnd();
    const { cells, signal } = this;
    for (const cell of cells.filter((c) => c.handles.length && !c.row)) {
      signal?.throwIfAborted();
      const parts = [];
      try {
        // A bare-loop row's processes are closed by the row it shares them with; it times no latency.
        if (!cell.owner) for (const handle of cell.handles) parts.push(await unlessAborted(handle.turn('close', {}, 30000), signal));
      } catch (err) {
        await this.fail(cell, err);
        continue;
      }
      const closed = cell.owner ? { operations: sum(cell.windows.map((w) => w.ops)), latency: null }
        : parts.length > 1 ? combineClosed(parts) : parts[0];
      cell.row = rowFromWindows(cell, closed, { concurrency: benchConcurrency(this.bench, this.level), jitWait: this.jitWait, rate: this.rate });
    }
    // A driver failed part-way: its processes may hold open connections or a half-read reply.
    for (const cell of cells.filter((c) => c.row && !c.row.ok)) {
      for (const handle of cell.handles.filter((h) => h.alive)) await handle.turn('close', {}, 10000).catch(() => handle.kill());
    }
    const budgetStop = this.budgetStopped ? { rounds: this.order.length, of: this.settings.rounds, budgetS: this.budget } : undefined;
    return { rows: cells.map((c) => c.row), order: this.order, budgetStop };
  }
}
