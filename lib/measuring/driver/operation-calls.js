// One sampled call of a driver's operations: k back to back on each connection, one result in so many
// checked, one in so many timed; and the timeouts that stop a call when the driver or server hangs.
import { performance } from 'node:perf_hooks';
import { whenAborted } from '../../common/timers.js';

export class SampleTimeout extends Error {
  constructor(seconds) {
    super(`no reply within ${seconds} s: the driver or the server hung`);
    this.name = 'SampleTimeout';
  }
}

// One in every `timeEvery` is timed, from a random offset so no operation of a period is favoured; a
// check is in no latency.
async function chain(op, k, check, latencies, checkEvery, timeEvery) {
  let timed = latencies ? Math.floor(Math.random() * timeEvery) : k;
  for (let i = 0; i < k; i++) {
    const start = i === timed ? performance.now() : 0;
    const result = await op();
    if (i === timed) {
      latencies.push((performance.now() - start) * 1000);
      timed += timeEvery;
    }
    if (i % checkEvery === 0) check(result);
  }
  latencies?.addOperations(k);
}

export function runCall({ ops, count, check, latencies = null, checkEvery = 1, timeEvery }) {
  if (ops.length === 1) return chain(ops[0], count, check, latencies, checkEvery, timeEvery);
  return Promise.all(ops.map((op) => chain(op, count, check, latencies, checkEvery, timeEvery)));
}

export function guard(promise, ms, signal) {
  let timer;
  let stopListening;
  const stop = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new SampleTimeout(ms / 1000)), ms);
    stopListening = whenAborted(signal, reject);
  });
  return Promise.race([promise, stop]).finally(() => {
    clearTimeout(timer);
    stopListening();
  });
}

/** One timer for a stretch of calls, not one per call in a window: `failed` rejects after `ms` without progress(). */
export function stallWatch(ms, signal) {
  let last = performance.now();
  let timer = null;
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  failed.catch(() => {}); // observed through Promise.race
  const check = () => {
    if (performance.now() - last >= ms) fail(new SampleTimeout(ms / 1000));
    else timer = setTimeout(check, ms / 4);
  };
  timer = setTimeout(check, ms / 4);
  const stopListening = whenAborted(signal, fail);
  return {
    failed,
    progress() { last = performance.now(); },
    stop() {
      clearTimeout(timer);
      stopListening();
    },
  };
}
