// One bench counted in a worker thread of a row's count process (count-entry.cjs), replayed: a warm-up,
// then `chunks` windows, each ended by os.getPriority(), the dump marker. The worker asks the parent on
// stdout to switch instrumentation and waits for a byte on stdin; a primer runs the same path, uncounted.
import fs from 'node:fs';
import os from 'node:os';
import { replayConnections } from '../conversations/transport.js';
import { decodeConversation, readSet } from '../conversations/sets.js';
import { builtinAdapterFile, loadDrivers } from '../drivers/index.js';
import { benchNamed, loadBenchSources } from '../../benchs/index.js';
import { planBench, targetFor } from '../measuring/bench/plan.js';
import { windowMeter } from './window-meter.js';

// A primer's operations: enough to take every path a counted bench takes, boundaries and asks included.
const PRIMER_SIZE = Object.freeze({ warmup: 4, ops: 2 });

const byte = Buffer.alloc(1);
const ask = (line) => {
  fs.writeSync(1, `${line}\n`);
  fs.readSync(0, byte, 0, 1);
};

/** Counts (or primes) one bench; with `meter` (a native counter) its windows are measured here. */
export async function countBench(item, { chunks, primer = false, meter = false, requireModule = null }) {
  const set = readSet(item.set);
  // --collected-start: a second heap state, the worker's heap collected in full before the driver loads
  // (what V8's caches hold, and where, moved a count with code a bench never runs).
  if (item.collectedStart && !primer) {
    globalThis.gc();
    globalThis.gc();
  }
  // Before the driver loads: it may keep its own reference to node:net's connect.
  replayConnections(decodeConversation(set));
  // Loaded the way start-up loads the rest; loadDrivers then import()s it.
  const adapter = builtinAdapterFile(item.spec);
  if (requireModule && adapter) requireModule(adapter);
  const [driver] = await loadDrivers([item.spec], { checked: true });
  await loadBenchSources(item.benches);
  const bench = benchNamed(item.bench);
  if (!bench) throw new Error(`unknown bench ${item.bench}`);
  const context = { ...item.context, ...(set.setupData === null ? {} : { setupData: set.setupData }) };
  const { plan, check, notApplicable } = planBench(bench, driver, context);
  if (notApplicable) throw new Error(notApplicable.unsupported ?? notApplicable.unavailable);
  const conn = await driver.connect(targetFor(plan, item.target));
  await plan.init?.(conn);
  // A timer the driver set and cleared while connecting (mysql2's connectTimeout) leaves libuv's timer
  // armed, to fire inside a window later; a 1 ms timer rearms it now.
  await new Promise((resolve) => { setTimeout(resolve, 1); });
  const op = plan.op(conn);
  const { warmup, ops } = primer ? PRIMER_SIZE : item;
  const tag = primer ? 'prime' : '';
  const total = warmup + chunks * ops;
  const meterOf = meter && !primer ? windowMeter() : null;
  const boundary = (i) => {
    if (i === warmup) ask(`${tag}on ${item.index}`);
    if (i > warmup) meterOf?.mark(true);
    globalThis.gc({ type: 'minor' });
    if (i >= warmup && i < total) meterOf?.mark();
    os.getPriority();
  };
  // Every run starts from a collected heap: start-up left one that differed by a page between runs.
  globalThis.gc();
  globalThis.gc();
  // One call site for every boundary, the last included: a call after the loop was one never made
  // before, and the function deoptimized inside the last window.
  for (let i = 0; ; i++) {
    if (i % ops === 0) {
      boundary(i);
      if (i === total) break;
    }
    check(await op());
  }
  ask(`${tag}off ${item.index}`);
  return { protocol: plan.protocol, windows: meterOf?.windows() ?? null };
}
