// A timer finer than Node's: setTimeout rounds to whole milliseconds, and an open schedule at
// thousands of operations per second needs its arrivals on time to within tens of microseconds.
// A worker thread sleeps on a futex (Atomics.wait, whose timeout is not rounded to milliseconds)
// until the time asked, then posts a message, which wakes this thread's event loop like any I/O.
// Its wake-up is late by a VM's wake-up, so the waker below sleeps on it only until shortly before
// an arrival, and turns the event loop for the rest (docs/history/2026-11-26-rate.md#figures-the-codes-comments-held).
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { spinFor } from '../../common/timers.js';

// The worker: wait while nothing is asked (ctl[0] unchanged), else until `due` (hrtime ns); post the
// sequence number it fired for, then wait for the next request.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ctl = new Int32Array(workerData, 0, 2);
const due = new BigInt64Array(workerData, 8, 1);
for (;;) {
  const seq = Atomics.load(ctl, 0);
  if (Atomics.load(ctl, 1) === 1) break;
  const at = due[0];
  if (at === 0n) { Atomics.wait(ctl, 0, seq); continue; }
  const left = Number(at - process.hrtime.bigint()) / 1e6;
  if (left > 0) { Atomics.wait(ctl, 0, seq, left); continue; }
  parentPort.postMessage(seq);
  Atomics.wait(ctl, 0, seq);
}
`;

/**
 * A ticker: wakeAt(atMs, fn) calls fn once at performance.now() time `atMs` or just after (a later
 * call replaces the one before); close() ends the worker. Its wake-ups are late by the futex's and the
 * event loop's wake-up (tens of µs on the project's VM), never early.
 */
export function createTicker() {
  const shared = new SharedArrayBuffer(16);
  const ctl = new Int32Array(shared, 0, 2);
  const due = new BigInt64Array(shared, 8, 1);
  const worker = new Worker(WORKER, { eval: true, workerData: shared });
  worker.unref();
  let pending = null;
  let seq = 0;
  worker.on('message', (firedFor) => {
    if (firedFor !== seq || !pending) return; // for a request since replaced
    const fn = pending;
    pending = null;
    fn();
  });
  const ticker = {
    /** Resolves once the worker has answered a first request: its start (tens of ms) is not in any window. */
    ready: null,
    wakeAt(atMs, fn) {
      pending = fn;
      due[0] = process.hrtime.bigint() + BigInt(Math.max(0, Math.ceil((atMs - performance.now()) * 1e6)));
      seq = (Atomics.add(ctl, 0, 1) + 1) | 0;
      Atomics.notify(ctl, 0);
    },
    close() {
      pending = null;
      Atomics.store(ctl, 1, 1);
      Atomics.add(ctl, 0, 1);
      Atomics.notify(ctl, 0);
      return worker.terminate();
    },
  };
  ticker.ready = new Promise((resolve) => ticker.wakeAt(performance.now(), resolve));
  return ticker;
}

// How far ahead of an arrival the waker stops sleeping and turns the event loop instead (each turn
// polls the sockets, then spins up to SPIN_SLICE_MS on a clock that allocates nothing): the ticker's
// own late wake-up would be carried as lag.
const SPIN_AHEAD_MS = 1;
const SPIN_SLICE_MS = 0.025;

/**
 * wakeAt(atMs, fn) as the ticker's, on time to within a turn of the event loop: it sleeps (ticker)
 * until SPIN_AHEAD_MS before, then turns. A later call replaces an earlier one. The process's CPU is
 * busy while it turns: its CPU time per operation includes the waits for near arrivals.
 */
export function createWaker(ticker = createTicker()) {
  let request = 0;
  const turnUntil = (atMs, fn, id) => {
    if (id !== request) return;
    const left = atMs - performance.now();
    if (left <= 0) {
      fn();
      return;
    }
    spinFor(Math.min(left, SPIN_SLICE_MS));
    if (performance.now() >= atMs) fn();
    else setImmediate(turnUntil, atMs, fn, id);
  };
  return {
    ready: ticker.ready,
    wakeAt(atMs, fn) {
      const id = ++request;
      if (atMs - performance.now() > SPIN_AHEAD_MS) ticker.wakeAt(atMs - SPIN_AHEAD_MS, () => turnUntil(atMs, fn, id));
      else setImmediate(turnUntil, atMs, fn, id);
    },
    close: () => ticker.close(),
  };
}

/**
 * Turn the event loop as the waker does while it waits (each turn polls the sockets, then spins up to
 * SPIN_SLICE_MS), until the returned stop() is called: a closed-loop window run this way waits for
 * its replies as an open schedule's does, so the maximum a rate is a share of is measured alike.
 */
export function busyPoll() {
  let on = true;
  const turn = () => {
    if (!on) return;
    spinFor(SPIN_SLICE_MS);
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => { on = false; };
}
