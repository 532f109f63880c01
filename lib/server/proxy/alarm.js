// The latency proxy's alarm clock, run as a worker thread of the proxy process. Node's timers wake
// the event loop about a millisecond late (and can fire early), too coarse for sub-millisecond
// delays; this thread sleeps in the kernel for the time asked (Atomics.wait takes fractions of a
// millisecond; it overshoots by a wake-up's latency) and then wakes the proxy's event loop with a message.
// The proxy's own thread stays free to read sockets meanwhile, and never releases on the alarm
// alone: it checks the clock itself (see process.js).
import { parentPort } from 'node:worker_threads';

const nap = new Int32Array(new SharedArrayBuffer(4)); // never notified: a pure sleep

parentPort.on('message', (waitMs) => {
  if (waitMs > 0) Atomics.wait(nap, 0, 0, waitMs);
  parentPort.postMessage('wake');
});
