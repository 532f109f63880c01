// --replay --count <counter> (counters/: instructions, cycles): each row's client cost counted by Valgrind
// instead of timed. A row is one process (count-row.js): its benches each in a worker thread of their
// own after a primer, instrumentation off for start-up and warm-up (Valgrind's uninstrumented speed,
// about eight times a counted one), on for three windows of N operations, each ended by a dump of the
// tool's counters. A bench's figure per operation is its windows' total, without V8's compile work, over
// their operations; the windows' spread says whether the row was steady. Rows are counted side by side,
// one per CPU: a count does not follow the host's load.
import os from 'node:os';
import path from 'node:path';
import { notApplicableReason, planFor } from '../measuring/bench/plan.js';
import { failedRow, naRow } from '../measuring/planning/rows.js';
import { median, sum } from '../common/stats.js';
import { decodeConversation, readSet } from '../conversations/sets.js';
import { programSpec } from '../drivers/spec.js';
import { DESIGN_BENCHES, addedBenchSources } from '../../benchs/index.js';
import { PROFILES_DIR, profilePath, pruneProfiles } from './profiles.js';
import { confirmSteps, stepRows } from './confirm-steps.js';
import { PROFILE_FLAGS } from './counters/instructions.js';
import { countItems } from './count-row.js';
import { harnessCode } from '../common/harness.js';

// The harness's version and commit, asked of git once.
let harness;
const harnessOnce = () => (harness ??= harnessCode());

// Windows per bench: their spread shows whether the row was steady.
const CHUNKS = 3;

// A window that counts this many times the row's median window holds a one-off event, not the
// row's steady cost. Such a bench is counted again in a new process, and marked unsteady (not judged)
// when that one has one too.
export const UNSTEADY_WINDOW_RATIO = 1.5;

/** Pure: does a row's windows' largest exceed UNSTEADY_WINDOW_RATIO × their median? */
export function unsteadyWindows(windows) {
  return Math.max(...windows) > UNSTEADY_WINDOW_RATIO * median(windows);
}

/**
 * Pure: is a counted bench ({ windows, fullCollections }) unsteady: a window that holds a one-off event,
 * or a full collection of the heap in its windows (which the count's process is set never to make
 * there: one deoptimizes what the driver's code embeds, and that code runs slower until compiled again)?
 */
export const unsteadyCount = (counted) => unsteadyWindows(counted.windows) || (counted.fullCollections ?? 0) > 0;

/** Pure: a counted bench's row from its windows ({ windows, jit, events, protocol }). */
export function countedRow({ counter, driver, warmup, ops, counted, again = null, first = null, profile = null }) {
  const { windows, jit, gc, fullCollections, events, protocol, seconds } = counted;
  const total = sum(windows);
  const perOp = (n) => Math.round((n / (CHUNKS * ops)) * 100) / 100;
  return {
    driver: driver.name,
    protocol,
    ok: true,
    status: 'ok',
    error: null,
    count: {
      what: counter.name,
      perOp: Math.round(total / (CHUNKS * ops)),
      ops: CHUNKS * ops,
      warmup,
      windows,
      spreadPct: Math.round(((Math.max(...windows) - Math.min(...windows)) / (total / CHUNKS)) * 1e5) / 1e3,
      // V8's compiles, tier-ups and deoptimizations in the windows, per operation: left out of perOp.
      jitPerOp: perOp(sum(jit)),
      // The collector's work in the windows, per operation: left out of perOp.
      ...(gc ? { gcPerOp: perOp(sum(gc)) } : {}),
      ...(fullCollections ? { fullCollections } : {}),
      ...(events ? { events: Object.fromEntries(Object.entries(events).map(([k, n]) => [k, perOp(n)])) } : {}),
      ...(again ? { recountedFrom: first.windows } : {}),
      // Wall time: the worker's start and warm-up, and its windows (instrumented).
      ...(seconds ? { seconds } : {}),
      ...(unsteadyCount(counted) ? { unsteady: true } : {}),
      ...(profile ? { profile } : {}),
    },
  };
}

/**
 * Pure: the benches a count's primer runs: the design benches, then the run's others. What ran before a
 * bench could move its count (mysql2's execute read 4.56 M, 4.66 M or 4.75 M instructions/op by it), so
 * the primer runs the same benches whatever subset of them a run counts (settings.count.primer).
 */
export const primerOf = (benches) => [...DESIGN_BENCHES, ...benches.filter((b) => !DESIGN_BENCHES.some((d) => d.name === b.name))];

/** Pure: are the rows one package's (releases, commits, checkouts of one driver)? */
const onePackage = (drivers) => drivers.length > 1 && new Set(drivers.map((d) => d.packageName ?? d.name.split('@')[0])).size === 1;

/** A row's benches: each one's cell (n/a, failed, or an item to count: its set, and sized by the counter). */
function rowCells({ counter, benches, driver, context, smoke, collectedStart = false }) {
  return benches.map((bench) => {
    const plan = planFor(bench, driver, context);
    const na = notApplicableReason(plan);
    const file = bench.replaySets?.[driver.name];
    if (na || !file) return { row: naRow(driver, na ?? 'no replay set') };
    if (file.failed) return { row: failedRow(driver, file.failed, plan.protocol) };
    const set = readSet(file);
    const sized = counter.size(decodeConversation(set));
    // --smoke: an eighth of the operations: that the count runs, not a figure to keep.
    const { warmup, ops } = smoke ? { warmup: Math.max(64, sized.warmup / 8), ops: Math.max(8, sized.ops / 8) } : sized;
    return { bench, plan, digest: set.digest, item: { bench: bench.name, benches: addedBenchSources(), set: file, warmup, ops, ...(collectedStart ? { collectedStart } : {}) } };
  });
}

/**
 * Count a row's `cells` (rowCells) whose item is set, in one process (or `only` of them, after a
 * primer over all), calling done(cellIndex, row) as each ends. `profiles`: { out, startedAt, recorded }
 * to keep each bench's profile, or null. A bench whose windows held a one-off event is counted again
 * in a new process.
 */
async function countRow({ counter, driver, cells, primerCells, only = null, context, target, live, signal, profiles, named = false, done }) {
  const all = cells.map((c, k) => ({ ...c, k })).filter((c) => c.item);
  const chosen = only ? all.filter((c) => only.includes(c.k)) : all;
  const primed = primerCells.filter((c) => c.item);
  if (!chosen.length) return;
  const base = { spec: programSpec(driver), context, target };
  const itemOf = (c) => ({ ...base, ...c.item });
  const warm = counter.warmWindows ?? 0;
  const kept = (c) => (profiles ? profilePath(profiles.startedAt, c.bench.name, named ? `${driver.name}+names` : driver.name) : null);
  // What the process counts, which names its sandbox: the harness's code, the row's, the benches and their sets.
  const what = (c) => [c.item.bench, c.digest, c.item.warmup, c.item.ops, ...(c.item.collectedStart ? ['collected'] : [])];
  const run = (list, keep) => new Promise((resolve, reject) => {
    const outcomes = new Map();
    countItems({
      counter,
      spec: base.spec,
      identity: { harness: harnessOnce(), row: driver.git?.commit ? `${driver.packageName}@git:${driver.git.commit}` : base.spec, items: list.map(what), primer: primed.map(what), keep, named },
      items: list.map(itemOf),
      primer: primed.map(itemOf),
      chunks: CHUNKS + warm,
      counted: CHUNKS,
      live,
      signal,
      keepOf: (i) => (keep && kept(list[i]) ? path.join(profiles.out, kept(list[i])) : null),
      profileFlags: keep ? counter.profileFlags?.(named ? { profileFlags: [...PROFILE_FLAGS] } : profiles.recorded) ?? [] : [],
      onItem: (i, outcome) => outcomes.set(list[i].k, outcome),
    }).then(() => resolve(outcomes), reject);
  });
  const first = await run(chosen, Boolean(profiles));
  const unsteady = chosen.filter((c) => first.get(c.k)?.windows && unsteadyCount(first.get(c.k)));
  const again = unsteady.length ? await run(unsteady, Boolean(profiles)) : new Map();
  if (profiles) pruneProfiles(path.join(profiles.out, PROFILES_DIR));
  for (const c of chosen) {
    if (signal?.aborted) throw signal.reason;
    const outcome = again.get(c.k) ?? first.get(c.k);
    const row = outcome?.windows
      ? countedRow({ counter, driver, warmup: c.item.warmup, ops: c.item.ops, counted: outcome, again: again.get(c.k)?.windows ? again.get(c.k) : null, first: first.get(c.k), profile: kept(c) })
      : failedRow(driver, outcome?.error ?? 'not counted', c.plan.protocol);
    done(c.k, row);
  }
}

/**
 * Count every bench × driver of a replay run into results.benches (the benches as the replay stage
 * made them: each with its rows' sets), one row's process per CPU at a time; a bench's entry is
 * reported when its rows are done. Rows fail alone; nothing is left running, also on abort. `out`: the
 * results' directory, where each row's profile is kept (under profiles/), or null to keep none.
 */
export async function countRun({ counter, benches, primerBenches = benches, drivers, results, context, target, signal, progress, smoke = false, out = null }) {
  // A native counter (no Valgrind tool) dumps no profile.
  const profiles = out && counter.tool ? { out, startedAt: results.startedAt, recorded: results.settings.count } : null;
  const live = new Set(); // killed when the run ends early (an error); each is also killed if this process exits
  try {
    const entries = benches.map((bench) => ({
      bench,
      entry: { name: bench.name, title: bench.title, sql: bench.sql, note: bench.note ? bench.note(context) : undefined, order: [], results: new Array(drivers.length) },
      left: drivers.length,
    }));
    let reported = 0;
    const report = () => {
      while (reported < entries.length && entries[reported].left === 0) {
        const { bench, entry } = entries[reported++];
        results.benches.push(entry);
        progress?.benchDone?.(bench, entry.results);
      }
    };
    const fill = (d) => (k, row) => {
      entries[k].entry.results[d] = row;
      entries[k].left--;
      report();
    };
    const collectedStart = Boolean(results.settings.count?.collectedStart);
    const rows = drivers.map((driver, d) => {
      const primerCells = rowCells({ counter, benches: primerBenches, driver, context, smoke, collectedStart });
      return { driver, d, primerCells, cells: benches.map((b) => primerCells[primerBenches.indexOf(b)] ?? rowCells({ counter, benches: [b], driver, context, smoke, collectedStart })[0]) };
    });
    for (const { d, cells } of rows) cells.forEach((c, k) => { if (c.row) fill(d)(k, c.row); });
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        signal?.throwIfAborted();
        const { driver, d, cells, primerCells } = rows[next++];
        const started = Date.now();
        await countRow({ counter, driver, cells, primerCells, context, target, live, signal, profiles, done: fill(d) });
        const counted = cells.filter((c) => c.item).length;
        if (counted) progress?.log?.(`  counted ${driver.name}: ${counted} bench${counted === 1 ? '' : 'es'} in one process (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    };
    const parallel = Math.max(1, Math.min(8, os.availableParallelism(), rows.length));
    await Promise.all(Array.from({ length: parallel }, worker));
    // A release history's steps, each side counted again (confirm-steps.js); not at --smoke size.
    if (results.settings.releaseRanges?.length && !smoke) {
      await confirmSteps(entries, {
        floorOf: (bench) => counter.benchFloorsPct?.[bench.name] ?? counter.noiseFloorPct,
        recount: (bench, i) => new Promise((resolve, reject) => {
          const k = benches.indexOf(bench);
          let row = null;
          countRow({ counter, driver: drivers[i], cells: rows[i].cells, primerCells: rows[i].primerCells, only: [k], context, target, live, signal, profiles: null, done: (_, r) => { row = r; } })
            .then(() => resolve(row), reject);
        }),
        parallel, signal, log: (line) => progress?.log?.(line),
      });
    }
    // The rows on either side of a step, counted again with V8's JIT names (--perf-basic-prof), which
    // moves a count: their profiles name the driver's functions, their figures stay the unnamed ones.
    if (profiles && !results.settings.count?.profileFlags?.length && onePackage(drivers)) {
      const floorOf = (bench) => counter.benchFloorsPct?.[bench.name] ?? counter.noiseFloorPct;
      const wanted = drivers.map(() => []);
      entries.forEach(({ bench, entry }, k) => stepRows(entry.results, floorOf(bench)).forEach((i) => wanted[i].push(k)));
      const named = wanted.map((only, i) => ({ only, i })).filter((w) => w.only.length);
      if (named.length) progress?.log?.(`naming the steps' functions: ${named.reduce((n, w) => n + w.only.length, 0)} row(s) counted again with V8's JIT names`);
      let next2 = 0;
      let namedDone = 0;
      const namer = async () => {
        while (next2 < named.length) {
          signal?.throwIfAborted();
          const { only, i } = named[next2++];
          const started = Date.now();
          await countRow({ counter, driver: drivers[i], cells: rows[i].cells, primerCells: rows[i].primerCells, only, context, target, live, signal, profiles, named: true,
            done: (k, row) => { if (row.ok && entries[k].entry.results[i]?.count) entries[k].entry.results[i].count.namedProfile = row.count.profile; } });
          namedDone++;
          progress?.log?.(`  named ${drivers[i].name}: ${only.map((k) => entries[k].bench.name).join(', ')} (${Math.round((Date.now() - started) / 1000)} s) [${namedDone}/${named.length}]`);
        }
      };
      await Promise.all(Array.from({ length: Math.min(parallel, named.length) }, namer));
    }
    results.complete = true;
  } finally {
    for (const child of live) child.kill('SIGKILL');
  }
  return results;
}
