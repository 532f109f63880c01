// The run's program in one function: for each level, each rate pass, each bench, each round, every cell
// one window (docs/glossary.md: Level, Rate (pass), Bench, Rounds, windows, Cell). Each bench's entry is
// yielded once its rows are made, so a run stopped part-way keeps the benches it finished.
import { errorText } from '../../common/redact.js';
import { ServerLost } from '../../common/errors.js';
import { setUpBench } from '../bench/plan.js';
import { hostLoadBetween, readCpuCounters } from '../host/host-load.js';
import { BenchRounds } from './bench.js';
import { failedRow, naRow } from './rows.js';
import { concurrencyLevels } from './scaling.js';
import { passRates, resolveRate } from './rate-passes.js';
import { startPace } from './pace.js';

/**
 * `run`: { benches, drivers, processes, admin, context, settings, serverPid, serverAlive, signal, progress }.
 * Yields each bench's entry: { name, title, sql, note, concurrency, rate?, order, results (its rows), budgetStop?, hostLoad?, tables? }.
 */
export async function* measureLoop(run) {
  const { benches, settings, signal } = run;
  const windowS = settings.time / settings.rounds; // `time`: the measured seconds per bench and driver
  const measured = [];
  for (const level of concurrencyLevels(settings.concurrency)) {
    for (const passRate of passRates(settings.rate)) {
      const pace = paceOf(run);
      for (const bench of benches) {
        signal?.throwIfAborted();
        const benchRate = passRate ? resolveRate(passRate, settings.rate, { results: { benches: measured }, benchName: bench.name, concurrency: level }) : null;
        const entry = entryOf(bench, { level, passRate, benchRate, context: run.context });
        const { context, rows } = await setUp(bench, { passRate, benchRate, run });
        if (rows) {
          entry.results = rows;
        } else {
          const counters = readCpuCounters();
          const rounds = new BenchRounds(bench, context, { run, level, windowS, benchRate, pace });
          await rounds.open();
          for (let r = 0, cells; (cells = rounds.next(r)); r++) {
            for (const cell of cells) await rounds.window(cell, r);
          }
          const { rows: measuredRows, order, budgetStop } = await rounds.close();
          Object.assign(entry, { results: measuredRows, order, budgetStop, hostLoad: hostLoadBetween(counters, readCpuCounters()) });
          entry.tables = tablesOf(bench, entry.results, context);
        }
        run.progress?.benchDone?.(bench, entry.results, entry.hostLoad);
        measured.push(entry);
        yield entry;
      }
    }
  }
}

/** A paced --replay run's clock (pace.js), started anew for each pass; null when the run has no pace. */
const paceOf = ({ settings, benches, drivers }) => (settings.pace && settings.budget
  ? startPace({ targetS: settings.pace.targetS, minS: settings.pace.minBudgetS, budgetS: settings.budget, benches: benches.length, rowsPerBench: drivers.length })
  : null);

const entryOf = (bench, { level, passRate, benchRate, context }) => ({
  name: bench.name, title: bench.title, sql: bench.sql, note: bench.note ? bench.note(context) : undefined, concurrency: level,
  ...(passRate ? { rate: benchRate ?? { pctOfMax: passRate.pctOfMax } } : {}),
  order: [], results: [],
});

/** The bench's set-up: { context }, or { rows } when it cannot be measured (no maximum to take a share of, a failed set-up). */
async function setUp(bench, { passRate, benchRate, run }) {
  const { drivers, admin, context } = run;
  if (passRate && !benchRate) return { rows: drivers.map((d) => naRow(d, 'no closed-loop maximum to take a share of: no row was measured in the closed-loop pass')) };
  try {
    return { context: await setUpBench(bench, admin, context) };
  } catch (err) {
    if (!(await run.serverAlive())) throw new ServerLost(`lost the server while setting up ${bench.name}`);
    return { rows: drivers.map((d) => failedRow(d, `bench setup failed: ${errorText(err)}`)) };
  }
}

/** A bench's own tables beside the main one (e.g. what each driver returned per column type); one error line if they throw. */
function tablesOf(bench, rows, context) {
  if (!bench.tables) return undefined;
  try {
    return bench.tables(rows, context);
  } catch (err) {
    return [{ title: 'tables', head: ['error'], rows: [[`could not make this bench's tables: ${errorText(err)}`]] }];
  }
}
