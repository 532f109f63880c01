// --shard i/n: a deterministic share of a run's cells, joined by `merge`. Every shard also measures each
// bench's reference row, so that every Δ is paired on the machine that measured it; a bench's probe runs
// in shard 1 only (docs/scaling.md, "Sharded runs").
import { usageError } from '../../common/errors.js';
import { whenAborted } from '../../common/timers.js';
import { rowKey } from '../../common/row-key.js';
import { planFor } from '../bench/plan.js';

/** `2/3` → { index: 2, count: 3 } (1-based); anything else is one line, exit 2. */
export function parseShard(text) {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) {
    throw usageError(`--shard must be i/n with 1 ≤ i ≤ n (e.g. 1/2 and 2/2), not '${text}'`, 'in a Kubernetes Indexed Job: --shard $((JOB_COMPLETION_INDEX + 1))/<completions>');
  }
  return { index, count };
}

const runs = (bench, driver, context) => {
  const plan = planFor(bench, driver, context);
  return !plan.unsupported && !plan.unavailable;
};

/** Pure: the cells dealt in turn, the same on every machine for the same benches and drivers. */
export function assignCells(benches, driverNames, baseline, count) {
  const owner = new Map();
  let k = 0;
  for (const bench of benches) {
    for (const name of driverNames) {
      if (name === baseline) continue;
      owner.set(rowKey(bench.name, name), (k++ % count) + 1);
    }
  }
  return owner;
}

/** The benches as shard `shard` measures them: rows of other shards n/a, saying which shard has them. */
export function shardBenches(benches, drivers, baseline, shard) {
  if (!shard) return benches;
  const names = drivers.map((d) => d.name);
  const owner = assignCells(benches, names, baseline, shard.count);
  const baselineDriver = drivers.find((d) => d.name === baseline);
  const referenceOf = (bench, context) => (baselineDriver && runs(bench, baselineDriver, context) ? baseline
    : drivers.find((d) => runs(bench, d, context))?.name);
  return benches.map((bench) => {
    // The bench's reference row, found once per context: every driver's plan is asked with the same one.
    const references = new WeakMap();
    const referenceIn = (context) => {
      if (typeof context !== 'object' || context === null) return referenceOf(bench, context);
      if (!references.has(context)) references.set(context, referenceOf(bench, context));
      return references.get(context);
    };
    return {
      ...bench,
      probe: shard.index === 1 ? bench.probe : undefined,
      plan(driver, context) {
        const cell = owner.get(rowKey(bench.name, driver.name));
        if (driver.name === baseline || cell === shard.index || driver.name === referenceIn(context)) return bench.plan(driver, context);
        return { unavailable: `measured by shard ${cell}/${shard.count}` };
      },
    };
  });
}

const MAX_WAIT_MS = 24 * 3600 * 1000;

/**
 * --start-at <time>: when the shards of a run start measuring, together (ISO 8601, or seconds since
 * the epoch), as k6-operator starts its paused runners at once. Returns the time in ms.
 */
export function parseStartAt(text, now = Date.now()) {
  const s = String(text).trim();
  const ms = /^\d+(\.\d+)?$/.test(s) ? Number(s) * 1000 : Date.parse(s);
  if (!Number.isFinite(ms)) throw usageError(`--start-at must be a time (ISO 8601 such as 2026-11-25T22:30:00Z, or seconds since the epoch), not '${text}'`);
  if (ms - now > MAX_WAIT_MS) throw usageError(`--start-at ${s} is more than 24 h away`, 'give the time the shards should start measuring, in UTC');
  return ms;
}

export function waitUntil(at, signal) {
  const ms = at - Date.now();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let stopListening = () => {};
    const timer = setTimeout(() => { stopListening(); resolve(); }, ms);
    stopListening = whenAborted(signal, (reason) => { clearTimeout(timer); reject(reason); });
  });
}
