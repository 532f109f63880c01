// A row's count process (count-process.js starts it): one worker thread (count-worker.cjs) per bench in
// turn, each an isolate of its own, after a primer worker; the main thread waits blocked meanwhile, so only
// the worker's instructions count. Reported workers stay parked: tearing one down costs a second under Valgrind.
const fs = require('node:fs');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const WORKER = path.join(__dirname, 'count-worker.cjs');
const say = (obj) => fs.writeSync(1, `${JSON.stringify(obj)}\n`);

/** One worker over `items`; resolves to its report ({ ok, protocol } or { ok: false, error }). */
function runWorker(items, primer) {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { workerData: { items, chunks: job.chunks, meter: Boolean(job.meter), primer, done } });
  // Blocked until the worker says it is finished (its last act): nothing of this thread's runs meanwhile.
  Atomics.wait(done, 0, 0);
  return new Promise((resolve) => {
    worker.on('message', resolve);
    worker.on('error', (err) => resolve({ ok: false, error: err?.message ?? String(err) }));
    worker.on('exit', () => resolve({ ok: false, error: 'the count worker ended without a report' }));
  });
}

(async () => {
  say({ primer: true, ...(await runWorker(job.primer, true)) });
  for (const item of job.items) say({ index: item.index, ...(await runWorker([item], false)) });
  process.exit(0);
})().catch((err) => {
  say({ ok: false, error: err?.message ?? String(err) });
  process.exit(1);
});
