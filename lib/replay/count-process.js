// One count process (--count instructions, cycles), run under Valgrind's callgrind by count.js,
// instrumentation off: a driver on one bench, its connection answered by a replay set in this
// process. Every `ops` operations it passes a boundary: it writes the operation's index on stdout and
// calls os.getPriority(), on which callgrind dumps its counters (when instrumented). At index `warmup`
// it waits until the file `go` exists, its parent having switched instrumentation on meanwhile; then
// `chunks` windows of `ops` operations follow, each a dump of its own. Every result is checked. Last,
// one JSON line on stdout ({ ok, ops, protocol } or { ok: false, error }).
//   node count-entry.cjs '<json: { spec, bench, benches, set, context, target, warmup, ops, chunks, go }>'
// (benches: the sources of the run's benches from outside benchs/, --bench-file)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { replayConnections, takeMismatch } from '../conversations/transport.js';
import { decodeConversation, readSet } from '../conversations/sets.js';

const args = JSON.parse(process.argv[2]);
// What start-up goes on to load comes in as this file did (count-entry.cjs): with require() where
// Node can, so that no module read interleaves with the process's other work.
const requireModule = process.features.require_module ? createRequire(import.meta.url) : null;
const load = async (file) => (requireModule ? requireModule(file) : import(file));
const say = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

async function main() {
  const set = readSet(args.set);
  // Before the driver loads: it may keep its own reference to node:net's connect.
  replayConnections(decodeConversation(set));
  const { builtinAdapterFile, loadDrivers } = await load('../drivers/index.js');
  const { benchNamed, loadBenchSources } = await load('../../benchs/index.js');
  const { planBench, targetFor } = await load('../measuring/bench/plan.js');
  // The driver's built-in adapter too, which loadDrivers then import()s loaded.
  const adapter = builtinAdapterFile(args.spec);
  if (requireModule && adapter) requireModule(adapter);
  const [driver] = await loadDrivers([args.spec], { checked: true });
  await loadBenchSources(args.benches);
  const bench = benchNamed(args.bench);
  if (!bench) throw new Error(`unknown bench ${args.bench}`);
  const context = { ...args.context, ...(set.setupData === null ? {} : { setupData: set.setupData }) };
  const { plan, check, notApplicable } = planBench(bench, driver, context);
  if (notApplicable) throw new Error(notApplicable.unsupported ?? notApplicable.unavailable);
  const conn = await driver.connect(targetFor(plan, args.target));
  await plan.init?.(conn);
  const op = plan.op(conn);
  // One loop, in one activation, for the warm-up and the windows, and the same code at every
  // boundary: a window that began with a new call, a branch not taken before, or a stream written,
  // began with a deoptimization and a compile (up to 50 million instructions, counted in it).
  const { warmup, ops, chunks, go } = args;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const boundary = (i) => {
    fs.writeSync(1, `${i}\n`);
    while (!fs.existsSync(go) && i >= warmup) Atomics.wait(pause, 0, 0, 2);
    globalThis.gc({ type: 'minor' });
    os.getPriority();
  };
  // Start-up loads modules asynchronously, and leaves a heap that differs by a page from run to run:
  // in some runs a mark-compact then fell early in the warm-up, and mariadb's `insert` counted 7 %
  // more in every window (115,520 against 107,945 instructions/op, 2 runs of 4). Two full collections
  // here give every run the same heap to start from (6 runs of 6 within 0.006 %).
  globalThis.gc();
  globalThis.gc();
  const total = warmup + chunks * ops;
  for (let i = 0; i < total; i++) {
    if (i % ops === 0) boundary(i);
    check(await op());
  }
  boundary(total);
  say({ ok: true, ops: args.ops, protocol: plan.protocol });
}

main().then(() => process.exit(0), (err) => {
  say({ ok: false, error: takeMismatch() || err?.message || String(err) });
  process.exit(1);
});
