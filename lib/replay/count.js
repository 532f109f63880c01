// --replay --count <counter>: each row's client cost counted instead of timed, one process a row
// (count-row.js), its benches in worker threads after a primer. Rows run side by side, one per CPU: a count
// does not follow the host's load (docs/replay.md, "Instructions per operation: `--replay --count instructions`").
import os from 'node:os';
import { DESIGN_BENCHES } from '../../benchs/index.js';
import { confirmSteps, stepRows } from './confirm-steps.js';
import { countRow, rowCells } from './count-row.js';
import { inParallel } from '../common/parallel.js';
import { EXIT } from '../common/errors.js';
import { stoppedWith } from '../common/stopped.js';

/**
 * Pure: the design benches, then the run's others. What ran before a bench moves its count, so the primer
 * runs the same benches whatever subset a run counts (docs/history/2026-11-28-gate.md#designs-tried).
 */
export const primerOf = (benches) => [...DESIGN_BENCHES, ...benches.filter((b) => !DESIGN_BENCHES.some((d) => d.name === b.name))];

/** Pure: are the rows one package's (releases, commits, checkouts of one driver)? */
const onePackage = (drivers) => drivers.length > 1 && new Set(drivers.map((d) => d.packageName ?? d.name.split('@')[0])).size === 1;

const floorOf = (counter) => (bench) => counter.benchFloorsPct?.[bench.name] ?? counter.noiseFloorPct;

/** Row i's `benches` counted again in one new process, with no profile kept: resolves to a Map of bench name → row. */
const recountRow = ({ counter, context, target, live, signal, rows, entries }) => (i, benches) => new Promise((resolve, reject) => {
  const got = new Map();
  const only = benches.map((bench) => entries.findIndex((e) => e.bench === bench));
  countRow({ counter, driver: rows[i].driver, cells: rows[i].cells, primerCells: rows[i].primerCells, only, context, target, live, signal, profiles: null, done: (k, r) => got.set(entries[k].bench.name, r) })
    .then(() => resolve(got), reject);
});

/** A step's rows counted again with V8's JIT names, which move a count: only their profiles are kept. */
async function nameSteps({ counter, context, target, live, signal, profiles, rows, entries, parallel, log }) {
  const wanted = rows.map(() => []);
  entries.forEach(({ bench, entry }, k) => stepRows(entry.results, floorOf(counter)(bench)).forEach((i) => wanted[i].push(k)));
  const named = wanted.map((only, i) => ({ only, i })).filter((w) => w.only.length);
  if (named.length) log(`naming the steps' functions: ${named.reduce((n, w) => n + w.only.length, 0)} row(s) counted again with V8's JIT names`);
  let namedDone = 0;
  await inParallel(named, parallel, async ({ only, i }) => {
    const started = Date.now();
    const { driver, cells, primerCells } = rows[i];
    await countRow({ counter, driver, cells, primerCells, only, context, target, live, signal, profiles, named: true,
      done: (k, row) => { if (row.ok && entries[k].entry.results[i]?.count) entries[k].entry.results[i].count.namedProfile = row.count.profile; } });
    namedDone++;
    log(`  named ${driver.name}: ${only.map((k) => entries[k].bench.name).join(', ')} (${Math.round((Date.now() - started) / 1000)} s) [${namedDone}/${named.length}]`);
  }, { signal });
}

/**
 * Rows fail alone; nothing is left running, also on abort. `out`: where the rows' profiles are kept, or
 * null. Resolves to { benches, complete, stoppedBy, exitCode }; any other error is thrown with them (err.partial).
 */
export async function countRun({ counter, benches, primerBenches = benches, drivers, settings, startedAt, context, target, signal, progress, smoke = false, out = null }) {
  const profiles = out && counter.tool ? { out, startedAt, recorded: settings.count } : null; // a native counter dumps none
  const live = new Set(); // killed when the run ends early (an error); each is also killed if this process exits
  const counted = [];
  try {
    const entries = benches.map((bench) => ({
      bench,
      entry: { name: bench.name, title: bench.title, sql: bench.sql, note: bench.note ? bench.note(context) : undefined, order: [], results: new Array(drivers.length) },
      left: drivers.length,
    }));
    const fill = (d) => (k, row) => {
      entries[k].entry.results[d] = row;
      entries[k].left--;
      while (counted.length < entries.length && entries[counted.length].left === 0) {
        const { bench, entry } = entries[counted.length];
        counted.push(entry);
        progress?.benchDone?.(bench, entry.results);
      }
    };
    const rows = rowsOf({ counter, benches, primerBenches, drivers, context, smoke, collectedStart: Boolean(settings.count?.collectedStart) });
    for (const { d, cells } of rows) cells.forEach((c, k) => { if (c.row) fill(d)(k, c.row); });
    const parallel = Math.max(1, Math.min(8, os.availableParallelism(), rows.length));
    await inParallel(rows, parallel, async ({ driver, d, cells, primerCells }) => {
      const started = Date.now();
      await countRow({ counter, driver, cells, primerCells, context, target, live, signal, profiles, done: fill(d) });
      const n = cells.filter((c) => c.item).length;
      if (n) progress?.log?.(`  counted ${driver.name}: ${n} bench${n === 1 ? '' : 'es'} in one process (${Math.round((Date.now() - started) / 1000)} s)`);
    }, { signal });
    const again = { counter, context, target, live, signal, rows, entries, parallel, log: (line) => progress?.log?.(line) };
    // Not at --smoke size.
    if (settings.releaseRanges?.length && !smoke) await confirmSteps(entries, { floorOf: floorOf(counter), recountRow: recountRow(again), parallel, signal, log: again.log });
    if (profiles && !settings.count?.profileFlags?.length && onePackage(drivers)) await nameSteps({ ...again, profiles });
    return { benches: counted, complete: true, stoppedBy: null, exitCode: EXIT.OK };
  } catch (err) {
    return stoppedWith(err, signal, { benches: counted });
  } finally {
    for (const child of live) child.kill('SIGKILL');
  }
}

/** Each driver's row: its primer's cells and the run's benches' cells (a bench outside the primer counted in a cell of its own). */
function rowsOf({ counter, benches, primerBenches, drivers, context, smoke, collectedStart }) {
  return drivers.map((driver, d) => {
    const primerCells = rowCells({ counter, benches: primerBenches, driver, context, smoke, collectedStart });
    return { driver, d, primerCells, cells: benches.map((b) => primerCells[primerBenches.indexOf(b)] ?? rowCells({ counter, benches: [b], driver, context, smoke, collectedStart })[0]) };
  });
}
