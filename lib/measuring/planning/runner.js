// One rate pass of one level: the benches one after another, each measured on every driver in
// interleaved rounds (coordinator.js measureBench), their rows put into the results. No rendering here.
import { errorText } from '../../common/redact.js';
import { measureBench } from './coordinator.js';
import { failedRow, naRow } from './rows.js';
import { ServerLost } from '../../common/errors.js';
import { setUpBench } from '../bench/plan.js';
import { hostLoadBetween, readCpuCounters } from '../host/host-load.js';
import { resolveRate } from './rate-passes.js';
import { startPace } from './pace.js';

/**
 * @param {object} p
 * @param {Array} p.benches bench modules
 * @param {Array} p.drivers driver adapters (each measured in a process of its own)
 * @param {{ get(driver): Promise<object> }} p.processes the driver processes (started on first use)
 * @param {object} p.admin the harness's own connection (setup, verification), not measured
 * @param {object} p.context { schema, server, options } handed to benches
 * @param {Readonly<object>} p.settings the run's settings (resolve-run.js Settings)
 * @param {number} p.level the level's concurrency
 * @param {object|null} p.passRate the pass's rate ({ perSec } or { pctOfMax }; null for a closed loop: rate-passes.js passRates)
 * @param {number} p.windowS the measured seconds of each window
 * @param {object} p.results the results object; a bench's entry is added when it starts, its rows when it is done
 * @param {AbortSignal} p.signal aborts the run (Ctrl-C, server lost)
 * @param {object} p.progress { round(bench, r, rounds), benchDone(bench, rows) }
 * @param {() => Promise<boolean>} p.serverAlive
 * @param {number} [p.serverPid] the embedded server's pid (its CPU time per operation)
 */
export async function measureBenches({ benches, drivers, processes, admin, context, settings, level, passRate = null, windowS, results, signal, progress, serverAlive, serverPid }) {
  const pace = settings.pace && settings.budget ? startPace({ targetS: settings.pace.targetS, minS: settings.pace.minBudgetS, budgetS: settings.budget, benches: benches.length, rowsPerBench: drivers.length }) : null;
  for (const bench of benches) {
    signal?.throwIfAborted();
    // --rate: this pass's rate, for this bench (a share of its closed-loop maximum is resolved here).
    const benchRate = passRate ? resolveRate(passRate, settings.rate, { results, benchName: bench.name, concurrency: level }) : null;
    const entry = {
      name: bench.name, title: bench.title, sql: bench.sql,
      note: bench.note ? bench.note(context) : undefined,
      ...(passRate ? { rate: benchRate ?? { pctOfMax: passRate.pctOfMax } } : {}),
      order: [], results: [],
    };
    results.benches.push(entry);
    if (passRate && !benchRate) {
      entry.results = drivers.map((d) => naRow(d, 'no closed-loop maximum to take a share of: no row was measured in the closed-loop pass'));
      progress?.benchDone?.(bench, entry.results);
      continue;
    }
    let setupError = null;
    let benchContext = context;
    try {
      // What a bench's set-up shares with the driver processes (e.g. a reference result): ctx.setupData.
      benchContext = await setUpBench(bench, admin, context);
    } catch (err) {
      setupError = `bench setup failed: ${errorText(err)}`;
      if (!(await serverAlive())) throw new ServerLost(`lost the server while setting up ${bench.name}`);
    }
    if (setupError) {
      entry.results = drivers.map((d) => failedRow(d, setupError));
      progress?.benchDone?.(bench, entry.results);
      continue;
    }
    const counters = readCpuCounters();
    try {
      const { rows, order, budgetStopped, budget } = await measureBench({ bench, drivers, processes, admin, context: benchContext, settings, level, windowS, benchRate, serverPid, signal, progress, serverAlive, pace });
      entry.results = rows;
      entry.order = order;
      if (budgetStopped) entry.budgetStop = { rounds: order.length, of: settings.rounds, budgetS: budget };
      entry.hostLoad = hostLoadBetween(counters, readCpuCounters());
    } catch (err) {
      // Interrupted or the server lost part-way: this bench's unfinished rows are dropped, earlier benches stay.
      if (entry.results.length === 0) results.benches.pop();
      throw err;
    }
    // A bench's own tables beside the main one (e.g. what each driver returned per column type).
    if (bench.tables) {
      try {
        entry.tables = bench.tables(entry.results, benchContext);
      } catch (err) {
        entry.tables = [{ title: 'tables', head: ['error'], rows: [[`could not make this bench's tables: ${errorText(err)}`]] }];
      }
    }
    progress?.benchDone?.(bench, entry.results, entry.hostLoad);
  }
  return results;
}
