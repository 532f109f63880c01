// A row counted: its benches' cells, one process for them (count-process.js), and a bench whose
// windows held a one-off event counted again in a new one.
import path from 'node:path';
import { notApplicableReason, planFor } from '../measuring/bench/plan.js';
import { failedRow, naRow } from '../measuring/run/rows.js';
import { median, sum } from '../common/stats.js';
import { decodeConversation, readSet } from '../conversations/sets.js';
import { programSpec } from '../drivers/spec.js';
import { addedBenchSources } from '../../benchs/index.js';
import { PROFILES_DIR, profilePath, pruneProfiles } from './profiles.js';
import { PROFILE_FLAGS } from './counters/instructions.js';
import { countItems } from './count-process.js';
import { harnessCode } from '../common/harness.js';

let harness;
const harnessOnce = () => (harness ??= harnessCode());

// Windows per bench: their spread shows whether the row was steady.
const CHUNKS = 3;

// A window this many times the median holds a one-off event: such a bench is counted again in a new
// process, and marked unsteady (not judged) when that one has one too.
export const UNSTEADY_WINDOW_RATIO = 1.5;

export function unsteadyWindows(windows) {
  return Math.max(...windows) > UNSTEADY_WINDOW_RATIO * median(windows);
}

/** Pure: a one-off window, or a full collection in the windows (it deoptimizes code that embeds what it frees). */
export const unsteadyCount = (counted) => unsteadyWindows(counted.windows) || (counted.fullCollections ?? 0) > 0;

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
      // Left out of perOp.
      jitPerOp: perOp(sum(jit)),
      ...(gc ? { gcPerOp: perOp(sum(gc)) } : {}),
      ...(fullCollections ? { fullCollections } : {}),
      ...(events ? { events: Object.fromEntries(Object.entries(events).map(([k, n]) => [k, perOp(n)])) } : {}),
      ...(again ? { recountedFrom: first.windows } : {}),
      ...(seconds ? { seconds } : {}),
      ...(unsteadyCount(counted) ? { unsteady: true } : {}),
      ...(profile ? { profile } : {}),
    },
  };
}

export function rowCells({ counter, benches, driver, context, smoke, collectedStart = false }) {
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

/** Counts a row's cells (or `only` some, after a primer over all) in one process; done(cellIndex, row) as each ends. */
export async function countRow({ counter, driver, cells, primerCells, only = null, context, target, live, signal, profiles, named = false, done }) {
  const all = cells.map((c, k) => ({ ...c, k })).filter((c) => c.item);
  const chosen = only ? all.filter((c) => only.includes(c.k)) : all;
  const primed = primerCells.filter((c) => c.item);
  if (!chosen.length) return;
  const base = { spec: programSpec(driver), context, target };
  const itemOf = (c) => ({ ...base, ...c.item });
  const warm = counter.warmWindows ?? 0;
  const kept = (c) => (profiles ? profilePath(profiles.startedAt, c.bench.name, named ? `${driver.name}+names` : driver.name) : null);
  // What names the sandbox: the harness's code, the row's, the benches and their sets.
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

