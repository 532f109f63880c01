// One row of a run in a process of its own (forked by processes/driver-handle.js), with its own heap,
// module cache and JIT: everything that touches the driver happens here. Each IPC request
// { id, cmd, args } (the handlers below) gets one reply { id, ok, result | error }.
import { benchNamed, loadBenchSources } from '../../../benchs/index.js';
import { loadDrivers } from '../../drivers/index.js';
import { describeLoadFailure } from '../../drivers/checkout-modules.js';
import { connectorFor, planBench as planBenchFor, targetFor } from '../bench/plan.js';
import { sampleWindow } from './sampler.js';
import { bareWindow } from './bare-window.js';
import { warmUpBench } from './bench-warm-up.js';
import { capture } from './capture.js';
import { gcMsBetween } from './gc-pauses.js';
import { harnessBytesPerOp } from './harness-allocation.js';
import { windowFigure } from '../figures/window-fields.js';
import { windowSizer } from '../figures/window-sizing.js';
import { LatencyRecorder } from './latency.js';
import { rateWindow } from './rate-window.js';
import { busyPoll } from './ticker.js';
import { round1 } from '../../common/stats.js';
import { addSecret, errorText as textOf } from '../../common/redact.js';
import { within } from '../../common/timers.js';
import { awaitCompiles, canAwaitCompiles } from './jit.js';
import { holdSockets } from '../../drivers/held-sockets.js';
import { connectDirectly, installReplayTransport, replayConnections, takeMismatch } from '../../conversations/transport.js';
import { decodeConversation, readSet } from '../../conversations/sets.js';
import { IO_FIELDS } from '../figures/allocation.js';

// Ctrl-C and a closed terminal's hang-up reach the whole process group: the parent handles them and
// ends this process. If the parent goes away first, this process ends with it.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

// A local checkout may lack a module at any call (mysql loads its parts on first use): said in one
// line with its install command. A replay mismatch names the command, whatever the driver made of it.
const errorText = (err) => {
  const mismatch = takeMismatch();
  if (mismatch) return mismatch;
  const said = driver?.local ? describeLoadFailure(err, driver.dir) : err;
  return textOf(said);
};

let driver = null;
let context = null;
let target = null;
let benchesOpened = 0;
let runHoldMs = 0; // --rtt held here: the run's hold each way (stage.js), where a bench's tuning starts
let tunedRttMs = null; // and the RTT a bench's hold is tuned to (held-tuning.js), null when not tuned
let replaying = null; // { file, recording } of the set the open openBench replays
let harnessPerOp = 0; // bytes the window's own loop allocates per operation (harness-allocation.js)
let openBench = null;

async function openConnections(count, to = target) {
  const conns = [];
  try {
    for (let i = 0; i < count; i++) conns.push(await driver.connect(to));
    return conns;
  } catch (err) {
    await closeAll(conns, true);
    throw err;
  }
}

async function closeAll(conns, force = false) {
  await Promise.all(conns.map(async (c) => {
    try {
      if (force) c.destroy?.();
      else await within(c.close(), 2000);
    } catch {
      try { c.destroy?.(); } catch { /* gone */ }
    }
  }));
}

async function closeOpenBench({ force = false } = {}) {
  if (!openBench) return;
  const { conns, pool } = openBench;
  openBench = null;
  if (pool) await within(Promise.resolve(pool.close()).catch(() => {}), 5000);
  await closeAll(conns, force);
  // Dropping the driver's caches (mysql2's row parsers), every bench starts from the same state.
  try { await driver.releaseCaches?.(); } catch { /* housekeeping never fails a row */ }
}

function planBench(benchName, setupData) {
  const bench = benchNamed(benchName);
  if (!bench) throw new Error(`unknown bench ${benchName}`);
  return { bench, ...planBenchFor(bench, driver, setupData === undefined ? context : { ...context, setupData }) };
}

/** A sample's allocation less the window loop's own, and its calls (null when replayed: no socket). */
function driverShare(measured, ops, replayed) {
  if (!measured) return { allocatedBytes: null, ...Object.fromEntries(IO_FIELDS.map((f) => [f, null])) };
  const { allocatedBytes } = measured;
  return {
    allocatedBytes: allocatedBytes === null ? null : allocatedBytes - harnessPerOp * ops,
    ...Object.fromEntries(IO_FIELDS.map((f) => [f, replayed ? null : measured[f]])),
  };
}

const handlers = {
  async init(args) {
    // --rtt (stage.js): this process's connections to the server hold each chunk, each way.
    const { heldOneWayMs, heldRttMs, ...rest } = args.target ?? {};
    if (heldOneWayMs > 0) holdSockets({ oneWayMs: heldOneWayMs });
    runHoldMs = heldOneWayMs ?? 0;
    tunedRttMs = heldRttMs ?? null;
    // --replay: node:net wrapped before the driver loads (it may keep its own reference to connect).
    if (rest.replay || rest.capture) installReplayTransport();
    target = args.target ? rest : args.target;
    addSecret(target?.password);
    context = args.context;
    await loadBenchSources(args.benches);
    [driver] = await loadDrivers([args.spec], { checked: true });
    return { name: driver.name, version: driver.version, awaitsCompiles: canAwaitCompiles() };
  },

  async open({ bench: benchName, concurrency, warmup, settle = true, awaitCompiles: jitWait = false, callTimeoutMs, setupData, replay, warmupOps, fixed, windowS, lead, held: benchHold }) {
    await closeOpenBench({ force: true });
    if (replay?.failed) throw new Error(replay.failed);
    if (replay) {
      if (replaying?.file !== replay) replaying = { file: replay, recording: decodeConversation(readSet(replay)) };
      replayConnections(replaying.recording);
    } else connectDirectly();
    const { bench, plan, check, notApplicable } = planBench(benchName, setupData);
    if (notApplicable) return notApplicable;
    let pool = null;
    let conns = [];
    // plan.connects: the connection benches open their connections in each operation.
    if (plan.pool) pool = await driver.createPool(targetFor(plan, target), concurrency);
    else if (!plan.connects) conns = await openConnections(concurrency, targetFor(plan, target));
    openBench = { bench, plan, check, pool, conns, latencies: new LatencyRecorder(), callTimeoutMs, replayed: Boolean(replay) };
    for (const c of conns) await plan.init?.(c);
    openBench.ops = pool ? Array.from({ length: concurrency }, () => plan.op(pool))
      : plan.connects ? Array.from({ length: concurrency }, () => plan.op(connectorFor(plan, driver, target)))
        : conns.map((c) => plan.op(c));
    // The first bench also warms up code every bench runs; the window loop's allocation is measured before it.
    const firstBench = benchesOpened === 0;
    if (firstBench) harnessPerOp = await harnessBytesPerOp();
    benchesOpened++;
    const { warmed, sizer, held } = await warmUpBench({
      ops: openBench.ops, check, warmup, settle, jitWait, callTimeoutMs, firstBench,
      hold: { runHoldMs, tunedRttMs, benchHold }, replay: { warmupOps, fixed, windowS, lead },
    });
    openBench.sizer = sizer;
    return {
      protocol: plan.protocol, pool: Boolean(plan.pool), msPerOp: warmed.msPerOp, warmupSeconds: warmed.seconds,
      compileWaitSeconds: warmed.compileWaitSeconds, fixed: sizer.fixed ?? undefined, held, warmupOps: warmed.count,
    };
  },

  async window({ lead, windowS, awaitCompiles: jitWait = false, bare = false, rate = null, poll = false, fixed }) {
    if (!openBench) throw new Error('window before open');
    const { ops, check, latencies, callTimeoutMs, plan } = openBench;
    // --replay: the row's windows as the coordinator sized them, side by side with the other rows'.
    if (fixed && openBench.sizer.fixed) {
      openBench.sizer = windowSizer({ fixed });
      if (openBench.bareSizer) openBench.bareSizer = windowSizer({ fixed });
    }
    plan.windowStats?.(); // counts start again with this window
    // A rate run's closed-loop pass turns the event loop as its open schedule's waits do (ticker.js).
    const stopPolling = poll ? busyPoll() : null;
    if (bare) openBench.bareSizer ??= openBench.sizer;
    const m = await (rate ? rateWindow(openBench, { lead, windowS, rate })
      : bare ? bareWindow(ops[0], { ops, check, sizer: openBench.bareSizer, lead, windowS, callTimeoutMs })
        : sampleWindow({ ops, check, sizer: openBench.sizer, windowS, lead, callTimeoutMs, latencies, name: openBench.bench.name })).finally(() => stopPolling?.());
    if (bare) openBench.bareSizer = openBench.bareSizer.after(m.msPerOp);
    else if (!rate) openBench.sizer = openBench.sizer.after(m.msPerOp);
    // Compiled now, before this process is stopped, not through its next windows.
    const compileWaitMs = jitWait ? awaitCompiles() : 0;
    // GC entries are delivered after the turn they happened in.
    await new Promise((resolve) => setImmediate(resolve));
    return windowFigure({
      ...m,
      seconds: (m.measuredTo - m.measuredFrom) / 1000,
      gcMs: gcMsBetween(m.measuredFrom, m.measuredTo),
      ...driverShare(m.meter?.figures(), m.ops, openBench?.replayed),
      reruns: m.reruns ?? null,
      compileWaitMs,
      workload: plan.windowStats?.(),
    });
  },

  async capture({ bench: benchName, setupData, ops, callTimeoutMs = 30000 }) {
    await closeOpenBench({ force: true });
    const { plan, check, notApplicable } = planBench(benchName, setupData);
    if (notApplicable) return notApplicable;
    return capture({ driver, target, plan, check, ops, callTimeoutMs, closeAll });
  },

  /** The openBench's latencies (their histogram included, to be merged with the row's other processes'). */
  async close() {
    if (!openBench) return {};
    const { latencies, plan } = openBench;
    const summary = latencies.summary();
    const lags = openBench.rate?.lags;
    const result = {
      latency: summary && { ...summary, histogram: latencies.encode() },
      // --rate: how late the operations started against their schedule.
      lag: lags && lags.length ? { ...lags.summary(), histogram: lags.encode() } : undefined,
      operations: latencies.operations,
      workload: plan.summarize?.(latencies),
      rssMB: round1(process.memoryUsage().rss / 2 ** 20),
    };
    await closeOpenBench();
    return result;
  },
};

process.on('message', async ({ id, cmd, args }) => {
  try {
    const result = await handlers[cmd](args ?? {});
    process.send({ id, ok: true, result });
  } catch (err) {
    // A failed openBench may leave its connections mid-reply: drop them.
    if (cmd === 'open' || cmd === 'window') await closeOpenBench({ force: true }).catch(() => {});
    process.send({ id, ok: false, error: errorText(err) });
  }
});
process.send({ ready: true });
