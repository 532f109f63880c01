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
export function openLoopWindow(p) {
  return new Promise((resolve, reject) => new OpenLoop(p, resolve, reject).pump());
}

/** One open-loop window's state: its schedule, the arrivals waiting, the free callers and the counts. */
class OpenLoop {
  constructor({ ops, check, gaps, leadMs, measureMs, latencyLimitMs = 0, latencies, lags, clock, wakeAt }, resolve, reject) {
    Object.assign(this, { ops, check, gaps, latencyLimitMs, latencies, lags, clock, wakeAt, resolve, reject });
    const t0 = clock();
    this.measuredFrom = t0 + leadMs;
    this.end = this.measuredFrom + measureMs;
    this.drainUntil = this.end + measureMs;
    this.counts = { scheduled: 0, started: 0, completed: 0, skipped: 0, late: 0, behind: 0 };
    this.behindCounted = false;
    this.waiting = []; // intended starts, in order
    this.head = 0;
    this.free = ops.map((_, i) => i);
    this.inFlight = 0;
    this.next = t0;
    this.lastDone = this.end;
    this.failed = false;
    this.ended = false;
    this.pump = this.pump.bind(this);
    this.fail = this.fail.bind(this);
  }

  fail(err) {
    if (this.failed) return;
    this.failed = true;
    this.reject(err);
  }

  finish() {
    if (!this.ended && this.inFlight === 0 && this.head === this.waiting.length && !this.failed) {
      this.ended = true;
      this.resolve({ ...this.counts, measuredFrom: this.measuredFrom, measuredTo: Math.max(this.end, this.lastDone) });
    }
  }

  /** An operation on `caller`, meant to start at `intended`: its lag, then its latency from that intended start. */
  start(caller, intended) {
    const measured = intended >= this.measuredFrom;
    const startedAt = this.clock();
    if (measured) {
      this.counts.started++;
      this.lags.push((startedAt - intended) * 1000);
    }
    this.inFlight++;
    let promise;
    try {
      promise = Promise.resolve(this.ops[caller]());
    } catch (err) {
      promise = Promise.reject(err);
    }
    promise.then((result) => {
      const done = this.clock();
      this.inFlight--;
      if (this.failed) return;
      this.check(result);
      if (measured) {
        this.counts.completed++;
        this.latencies.push((done - intended) * 1000);
        if (this.latencyLimitMs > 0 && done - intended > this.latencyLimitMs) this.counts.late++;
        this.lastDone = done;
      }
      this.free.push(caller);
      this.pump();
    }).catch(this.fail);
  }

  /** The arrivals due by now queued, waiting ones started on free callers (or skipped past the limit), and the next wake set. */
  pump() {
    if (this.failed || this.ended) return;
    const now = this.clock();
    while (this.next < this.end && this.next <= now) {
      if (this.next >= this.measuredFrom) this.counts.scheduled++;
      this.waiting.push(this.next);
      this.next += this.gaps();
    }
    while (this.head < this.waiting.length && this.free.length > 0) {
      const intended = this.waiting[this.head++];
      if (this.latencyLimitMs > 0 && this.clock() - intended > this.latencyLimitMs) {
        if (intended >= this.measuredFrom) this.counts.skipped++;
        continue;
      }
      this.start(this.free.pop(), intended);
    }
    if (this.head > 4096 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    if (now < this.end) {
      this.wakeAt(Math.min(this.next, this.end), this.pump);
      return;
    }
    this.drain(now);
  }

  /**
   * The window's schedule is over: what still waits is behind it, and starts as callers free, until
   * another window's length has passed; what is left then could not start: skipped.
   */
  drain(now) {
    if (!this.behindCounted) {
      this.behindCounted = true;
      for (let i = this.head; i < this.waiting.length; i++) if (this.waiting[i] >= this.measuredFrom) this.counts.behind++;
    }
    if (now >= this.drainUntil) {
      for (; this.head < this.waiting.length; this.head++) if (this.waiting[this.head] >= this.measuredFrom) this.counts.skipped++;
    } else if (this.head < this.waiting.length) {
      this.wakeAt(this.drainUntil, this.pump);
    }
    this.finish();
  }
}
