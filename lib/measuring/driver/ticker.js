// A timer finer than setTimeout's whole milliseconds, for --rate's arrivals: a worker thread sleeps on
// a futex (Atomics.wait) and posts a message, which wakes the event loop like any I/O. The waker spins
// the last stretch (docs/history/2026-11-26-rate.md#figures-the-codes-comments-held).
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { spinFor } from '../../common/timers.js';

// The worker waits until `due` (hrtime ns), posts the sequence number it fired for, then waits for the next request.
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

/** wakeAt(atMs, fn) calls fn at `atMs` (performance.now()) or late, never early; a later call replaces the one before. */
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

// How far ahead of an arrival the waker stops sleeping and turns the event loop (each turn polls the
// sockets, then spins up to SPIN_SLICE_MS): the ticker's late wake-up would be carried as lag.
const SPIN_AHEAD_MS = 1;
const SPIN_SLICE_MS = 0.025;

/** The ticker's wakeAt, on time to a turn of the event loop; the process's CPU time includes the turning. */
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

/** Turns the event loop as the waker does until stop(), so a rate's closed-loop maximum waits for replies alike. */
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
