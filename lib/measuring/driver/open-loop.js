// --rate: operations started on an open schedule instead of each caller's last reply. Arrivals come
// at a fixed rate (uniform gaps, or Poisson: exponential gaps of that mean) whether or not the
// driver kept up; each goes to a free caller (of `ops`, the bench's --concurrency callers), or waits
// in arrival order for one. Latency is taken from the arrival's intended start, so a stall counts
// against every operation that should have started during it (no coordinated omission, as pgbench -R
// and wrk2 measure); the schedule lag (actual start - intended start) is recorded beside it.
// With a latency limit, an arrival already later than the limit when a caller frees is skipped, and
// an operation that completes later than the limit after its intended start is counted late
// (pgbench's --latency-limit). Arrivals still waiting when the window's schedule ends are counted
// behind; they still start, for up to another window's length, and what is left then is skipped.
// Pure apart from the clock and the timer it is given.
import { SCHEDULES } from '../figures/rate-figures.js';

export { seededRandom } from '../../common/seeded-random.js';

/** The gaps between arrivals, in ms, of a schedule at `ratePerSec`: a function giving the next gap. */
export function arrivalGaps(ratePerSec, schedule = 'poisson', random = Math.random) {
  if (!(ratePerSec > 0)) throw new Error(`a rate must be above 0 operations per second, not ${ratePerSec}`);
  const meanMs = 1000 / ratePerSec;
  if (schedule === 'uniform') return () => meanMs;
  if (schedule === 'poisson') return () => -Math.log(1 - random()) * meanMs;
  throw new Error(`unknown schedule "${schedule}": ${SCHEDULES.join(' or ')}`);
}

/**
 * One window of the open loop: arrivals from now for `leadMs` (run, not counted) and then `measureMs`
 * (counted). Resolves when the window's last started operation has completed, with
 * { scheduled, started, completed, skipped, late, behind, measuredFrom, measuredTo } (counts of the
 * measured arrivals; measuredTo: when the last of them completed, or the window's end). Each measured
 * operation's latency from its intended start goes to `latencies.push(µs)`, its lag to
 * `lags.push(µs)`. Every result goes through `check`; a failed operation or check rejects.
 * @param {object} p
 * @param {Array<() => Promise>} p.ops the callers, one operation each at a time
 * @param {() => number} p.clock ms
 * @param {(atMs: number, fn: () => void) => void} p.wakeAt call fn at (or soon after) clock time atMs; a later call replaces an earlier one
 */
export function openLoopWindow({ ops, check, gaps, leadMs, measureMs, latencyLimitMs = 0, latencies, lags, clock, wakeAt }) {
  return new Promise((resolve, reject) => {
    const t0 = clock();
    const measuredFrom = t0 + leadMs;
    const end = measuredFrom + measureMs;
    const drainUntil = end + measureMs;
    const counts = { scheduled: 0, started: 0, completed: 0, skipped: 0, late: 0, behind: 0 };
    let behindCounted = false;
    const waiting = []; // intended starts, in order
    let head = 0;
    const free = ops.map((_, i) => i);
    let inFlight = 0;
    let next = t0;
    let lastDone = end;
    let failed = false;
    let ended = false;

    const fail = (err) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    const finish = () => {
      if (!ended && inFlight === 0 && head === waiting.length && !failed) {
        ended = true;
        resolve({ ...counts, measuredFrom, measuredTo: Math.max(end, lastDone) });
      }
    };

    function start(caller, intended) {
      const measured = intended >= measuredFrom;
      const startedAt = clock();
      if (measured) {
        counts.started++;
        lags.push((startedAt - intended) * 1000);
      }
      inFlight++;
      let promise;
      try {
        promise = Promise.resolve(ops[caller]());
      } catch (err) {
        promise = Promise.reject(err);
      }
      promise.then((result) => {
        const done = clock();
        inFlight--;
        if (failed) return;
        check(result);
        if (measured) {
          counts.completed++;
          latencies.push((done - intended) * 1000);
          if (latencyLimitMs > 0 && done - intended > latencyLimitMs) counts.late++;
          lastDone = done;
        }
        free.push(caller);
        pump();
      }).catch(fail);
    }

    function pump() {
      if (failed || ended) return;
      const now = clock();
      while (next < end && next <= now) {
        if (next >= measuredFrom) counts.scheduled++;
        waiting.push(next);
        next += gaps();
      }
      while (head < waiting.length && free.length > 0) {
        const intended = waiting[head++];
        if (latencyLimitMs > 0 && clock() - intended > latencyLimitMs) {
          if (intended >= measuredFrom) counts.skipped++;
          continue;
        }
        start(free.pop(), intended);
      }
      if (head > 4096 && head * 2 > waiting.length) {
        waiting.splice(0, head);
        head = 0;
      }
      if (now < end) {
        wakeAt(Math.min(next, end), pump);
        return;
      }
      // The window's schedule is over: what still waits is behind it, and starts as callers free,
      // until another window's length has passed; what is left then could not start: skipped.
      if (!behindCounted) {
        behindCounted = true;
        for (let i = head; i < waiting.length; i++) if (waiting[i] >= measuredFrom) counts.behind++;
      }
      if (now >= drainUntil) {
        for (; head < waiting.length; head++) if (waiting[head] >= measuredFrom) counts.skipped++;
      } else if (head < waiting.length) {
        wakeAt(drainUntil, pump);
      }
      finish();
    }

    pump();
  });
}
