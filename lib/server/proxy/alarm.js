// The latency proxy's alarm clock, a worker thread: Node's timers are about a millisecond off, while
// Atomics.wait sleeps fractions of one. The proxy never releases on the alarm alone: it checks the
// clock itself (process.js).
import { parentPort } from 'node:worker_threads';

const nap = new Int32Array(new SharedArrayBuffer(4)); // never notified: a pure sleep

parentPort.on('message', (waitMs) => {
  if (waitMs > 0) Atomics.wait(nap, 0, 0, waitMs);
  parentPort.postMessage('wake');
});
