// One bench counted in a worker thread of a row's count process (count-entry.cjs): the driver's
// connection answered by the bench's replay set, a warm-up, then `chunks` windows of `ops` operations,
// each ended by os.getPriority(), on which callgrind dumps its counters. The parent switches
// instrumentation on and off around the windows: the worker asks, on stdout, and waits for one byte on
// stdin. A native counter's windows are measured here instead (`meter`, window-meter.js). Every result
// is checked. A primer runs the same path with a few operations and is not counted.
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
/** Say `line` to the parent and wait for its answer (instrumentation switched, or nothing to do). */
const ask = (line) => {
  fs.writeSync(1, `${line}\n`);
  fs.readSync(0, byte, 0, 1);
};

/**
 * Count (or prime) one bench: `item` { spec, bench, set, context, target, warmup, ops, index },
 * `chunks` windows, each measured here when `meter`. Resolves to { protocol, windows: the meter's, or null }.
 */
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
  // The driver's built-in adapter loaded the way start-up loads the rest, which loadDrivers then import()s.
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
  // A timer the driver set while connecting and cleared (mysql2's connectTimeout) leaves libuv's timer
  // armed; it fired seconds later, inside a window on a slow or busy host, with a compile of Node's
  // timer code. A timer of 1 ms rearms it now, before anything is counted.
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
