// One bench measured through the run's loop (lib/measuring/run/loop.js) at one level, for tests of
// a bench's rounds: windows of `windowS`, and with `benchRate` an open schedule at its asked rate.
import { measureLoop } from '../../lib/measuring/run/loop.js';

/** Resolves to { rows, order, budgetStopped, entry }: the bench's entry as the loop yielded it. */
export async function measureBench({ bench, drivers, processes, admin = null, context = {}, settings, level = 1, windowS, benchRate = null, serverAlive = async () => true, signal, progress }) {
  const rate = benchRate ? { rates: [{ perSec: benchRate.askedPerSec }], schedule: benchRate.schedule, seed: benchRate.seed, latencyLimitMs: benchRate.latencyLimitMs } : null;
  const loopSettings = { ...settings, concurrency: level, time: windowS * settings.rounds, rate };
  const entries = [];
  for await (const entry of measureLoop({ benches: [bench], drivers, processes, admin, context, settings: loopSettings, serverAlive, signal, progress })) entries.push(entry);
  const [entry] = entries;
  return { rows: entry.results, order: entry.order, budgetStopped: Boolean(entry.budgetStop), entry };
}
