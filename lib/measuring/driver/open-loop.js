// --rate: operations started on an open schedule, latency taken from each arrival's intended start
// so a stall counts against every operation it delayed (docs/rate.md). Pure apart from the clock and
// the timer it is given.
import { SCHEDULES } from '../figures/rate-figures.js';

export { seededRandom } from '../../common/seeded-random.js';

/** A function giving the next gap between arrivals, in ms. */
export function arrivalGaps(ratePerSec, schedule = 'poisson', random = Math.random) {
  if (!(ratePerSec > 0)) throw new Error(`a rate must be above 0 operations per second, not ${ratePerSec}`);
  const meanMs = 1000 / ratePerSec;
  if (schedule === 'uniform') return () => meanMs;
  if (schedule === 'poisson') return () => -Math.log(1 - random()) * meanMs;
  throw new Error(`unknown schedule "${schedule}": ${SCHEDULES.join(' or ')}`);
}

/** Arrivals for `leadMs` (not counted), then `measureMs`; resolves once the last started operation completes. */
export function openLoopWindow(p) {
  return new Promise((resolve, reject) => new OpenLoop(p, resolve, reject).pump());
}

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

  /** After the schedule: what waits is behind, starts as callers free for another window's length, then is skipped. */
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
