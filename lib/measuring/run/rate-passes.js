// `--rate 2000,4000` or `--rate 50%,120%`: the rate passes of a level, after the closed-loop pass when a
// rate is a share of its maximum; each pass's rate resolved per bench (docs/rate.md).
import { usageError } from '../../common/errors.js';
import { SCHEDULES } from '../figures/rate-figures.js';

const MAX_RATE = 10_000_000;

/** commander parser for --rate: `2000` -> [{ perSec: 2000 }]; `50%,120%` -> [{ pctOfMax: 50 }, { pctOfMax: 120 }]. */
export function parseRates(value) {
  const parts = String(value).split(',').map((s) => s.trim());
  const rates = parts.map((p) => {
    const pct = p.endsWith('%');
    const n = Number(pct ? p.slice(0, -1) : p);
    if (p === '' || p === '%' || !Number.isFinite(n) || n <= 0 || n > MAX_RATE) {
      throw usageError(`--rate must be operations per second above 0 (2000), or a share of the closed-loop maximum (50%), or a list of them, not '${value}'`);
    }
    return pct ? { pctOfMax: n } : { perSec: n };
  });
  const key = (r) => (r.perSec !== undefined ? `${r.perSec}` : `${r.pctOfMax}%`);
  const dup = rates.find((r, i) => rates.findIndex((o) => key(o) === key(r)) !== i);
  if (dup) throw usageError(`--rate names ${key(dup)} twice: '${value}'`);
  return rates;
}

export function parseSchedule(value) {
  if (!SCHEDULES.includes(value)) throw usageError(`--schedule must be ${SCHEDULES.join(' or ')}, not '${value}'`);
  return value;
}

export function parseLatencyLimit(value) {
  const n = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) throw usageError(`--latency-limit must be milliseconds above 0, not '${value}'`);
  return n;
}

export function assertRateBenches(benches) {
  const closedOnly = benches.filter((b) => !b.openSchedule).map((b) => b.name);
  if (closedOnly.length) {
    throw usageError(`--rate needs benches whose operations can start on a schedule: ${closedOnly.join(', ')} cannot`,
      'name benches that take one: `mysql-driver-bench list` marks them (rate)');
  }
}

export const rateSettings = ({ rate, schedule, latencyLimit }) => (rate ? {
  rates: rate, schedule: schedule ?? 'poisson', latencyLimitMs: latencyLimit ?? null, seed: 1,
} : null);

/**
 * The slowest row's ops/s in the closed-loop pass at this concurrency, so that the rows are compared at
 * a rate each can reach. Null when that pass measured no row.
 */
export function closedLoopMax(results, benchName, concurrency) {
  const entry = results.benches.find((e) => e.name === benchName && !e.rate && (e.concurrency ?? concurrency) === concurrency);
  const rows = entry?.results.filter((r) => r.ok && r.opsPerSec > 0) ?? [];
  return rows.length ? Math.min(...rows.map((r) => r.opsPerSec)) : null;
}

/** One rate of the list, for one bench; null when its maximum is unknown. */
export function resolveRate(rate, rateRun, { results, benchName, concurrency }) {
  const common = { schedule: rateRun.schedule, latencyLimitMs: rateRun.latencyLimitMs, seed: rateRun.seed };
  if (rate.perSec !== undefined) return { askedPerSec: rate.perSec, ...common };
  const max = closedLoopMax(results, benchName, concurrency);
  if (!max) return null;
  return { askedPerSec: Math.round((max * rate.pctOfMax) / 100), pctOfMax: rate.pctOfMax, closedLoopMax: Math.round(max), ...common };
}

export const windowRate = (benchRate) => (benchRate
  ? { perSec: benchRate.askedPerSec, schedule: benchRate.schedule, seed: benchRate.seed, latencyLimitMs: benchRate.latencyLimitMs }
  : null);

/** A level's passes: null is the closed loop, first when a rate is a share of its maximum. */
export const passRates = (run) => (run ? [...(run.rates.some((r) => r.pctOfMax !== undefined) ? [null] : []), ...run.rates] : [null]);

export const ratePasses = (run) => passRates(run).length;
