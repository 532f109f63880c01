// A row's count process (count-process.js starts it, under Valgrind or natively): its main thread runs one worker thread
// per bench, one after another, each in an isolate of its own (its own heap, JIT and modules), after a
// primer worker that runs every bench of the row briefly (count-worker.cjs). The main thread waits,
// blocked, while a worker runs, so that only the worker's instructions are counted. A worker that has
// reported stays parked, not torn down (a second a worker under Valgrind), until the process exits. Last, one JSON line
// a worker on stdout: { primer } or { index, ok, protocol, windows? } or { index, ok: false, error }.
//   node count-entry.cjs <job.json: { items: [bench items], primer: [bench items], chunks, meter? }>
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
