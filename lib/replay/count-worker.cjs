// A worker thread of a row's count process (count-entry.cjs): require() where it can, so start-up
// reads modules in one order in every process. Its last act wakes the main thread; then it stays parked.
const { parentPort, workerData } = require('node:worker_threads');

const requireModule = process.features.require_module ? require : null;
const load = async (file) => (requireModule ? requireModule(file) : import(file));

async function main() {
  const { countBench } = await load('./count-bench.js');
  const { takeMismatch } = await load('../conversations/transport.js');
  let counted = { protocol: null, windows: null };
  for (const item of workerData.items) {
    try {
      counted = await countBench(item, { chunks: workerData.chunks, primer: workerData.primer, meter: workerData.meter, requireModule });
    } catch (err) {
      // A primer goes on to the next bench: the bench itself fails, with its own reason, when it is counted.
      if (!workerData.primer) return { ok: false, error: takeMismatch() || err?.message || String(err) };
    }
  }
  return { ok: true, protocol: counted.protocol, ...(counted.windows ? { windows: counted.windows } : {}) };
}

main().catch((err) => ({ ok: false, error: err?.message ?? String(err) })).then((report) => {
  parentPort.postMessage(report);
  Atomics.store(workerData.done, 0, 1);
  Atomics.notify(workerData.done, 0);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});
