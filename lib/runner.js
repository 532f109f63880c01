// Runs the bench x driver matrix over rounds and produces plain result rows. No rendering here.
import { measure } from './sampler.js';
import { latencySummary, median, relativeMarginOfError, round1 } from './stats.js';
import { LatencyRecorder } from './latency.js';
import { redact } from './redact.js';
import { within } from './timers.js';
import { planFor } from './plan.js';

export class ServerLost extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServerLost';
  }
}

/** Driver order for step i: rotated so no driver always goes first or last. */
export function rotate(list, by) {
  const n = list.length;
  if (n === 0) return [];
  const k = ((by % n) + n) % n;
  return [...list.slice(k), ...list.slice(0, k)];
}

const errorText = (err) => redact(err?.sqlMessage || err?.message || String(err));

async function openConnections(driver, target, count) {
  const conns = [];
  try {
    for (let i = 0; i < count; i++) conns.push(await driver.connect(target));
    return conns;
  } catch (err) {
    await closeConnections(conns);
    throw err;
  }
}

async function closeConnections(conns, { force = false } = {}) {
  await Promise.all(conns.map(async (c) => {
    try {
      if (force) c.destroy?.();
      else await within(c.close(), 2000);
    } catch {
      try { c.destroy?.(); } catch { /* gone */ }
    }
  }));
}

/**
 * Aggregate one cell's rounds into a row. The figure is the median of the round figures;
 * rme is the 95 % relative margin of error of the mean over all samples pooled across rounds;
 * spreadPct is the range of the round figures relative to that median.
 */
export function aggregateRounds(rounds) {
  const figures = rounds.map((r) => r.opsPerSec);
  const pooled = rounds.flatMap((r) => r.sampleOpsPerSec);
  const mid = median(figures);
  return {
    opsPerSec: mid,
    rme: rounds.length === 1 ? rounds[0].rme : relativeMarginOfError(pooled),
    samples: pooled.length,
    spreadPct: rounds.length > 1 ? ((Math.max(...figures) - Math.min(...figures)) / mid) * 100 : 0,
    sampleOpsPerSec: pooled,
  };
}

/** Percentiles from the recorder's (possibly sampled) values; count and max are exact. */
function latencyOf(recorder) {
  const summary = latencySummary(recorder.toArray());
  return summary && { ...summary, count: recorder.length, max: round1(recorder.max) };
}

/**
 * @param {object} p
 * @param {Array} p.benches bench modules
 * @param {Array} p.drivers driver adapters
 * @param {object} p.admin the harness's own connection (setup, verification), not measured
 * @param {object} p.target connection target for the drivers
 * @param {object} p.context { schema, server } handed to benches
 * @param {object} p.settings { concurrency, time, warmup, minSamples, rounds, callTimeoutMs }
 * @param {object} p.results the results object; rows are filled in as cells are measured
 * @param {AbortSignal} p.signal aborts the run (Ctrl-C, server lost)
 * @param {object} p.progress { start(bench, driver, round), done(bench, row, round) }
 * @param {() => Promise<boolean>} p.serverAlive
 */
export async function runMatrix({ benches, drivers, admin, target, context, settings, results, signal, progress, serverAlive }) {
  const rounds = settings.rounds ?? 1;
  const connections = new Map(); // driver name -> { conns } or { error }
  const cells = new Map(); // `${bench}\0${driver}` -> { rounds: [], latencies, row }

  const connect = async (driver) => {
    try {
      connections.set(driver.name, { conns: await openConnections(driver, target, settings.concurrency) });
    } catch (err) {
      connections.set(driver.name, { error: `cannot connect: ${errorText(err)}` });
    }
  };
  for (const d of drivers) await connect(d);

  const entries = benches.map((bench) => {
    const entry = {
      name: bench.name, title: bench.title, sql: bench.sql,
      note: bench.note ? bench.note(context) : undefined,
      order: [], results: [],
    };
    results.benches.push(entry);
    return entry;
  });

  /** Put (or replace) a driver's row in a bench entry, keeping first-measured order. */
  const setRow = (entry, row) => {
    const i = entry.results.findIndex((r) => r.driver === row.driver);
    if (i >= 0) entry.results[i] = row;
    else entry.results.push(row);
    return row;
  };

  const setupFailed = new Map();
  try {
    for (let round = 0; round < rounds; round++) {
      for (let b = 0; b < benches.length; b++) {
        const bench = benches[b];
        const entry = entries[b];
        signal?.throwIfAborted();
        if (round === 0) {
          try {
            await bench.setup?.(admin, context);
          } catch (err) {
            setupFailed.set(bench.name, `bench setup failed: ${errorText(err)}`);
            if (!(await serverAlive())) throw new ServerLost(`lost the server while setting up ${bench.name}`);
          }
        }
        const order = rotate(drivers, b + round);
        entry.order.push(order.map((d) => d.name));

        for (const driver of order) {
          signal?.throwIfAborted();
          const key = `${bench.name}\0${driver.name}`;
          const cell = cells.get(key) ?? { rounds: [], latencies: new LatencyRecorder() };
          cells.set(key, cell);
          if (cell.done) { // n/a or failed in an earlier round
            progress?.skip?.();
            continue;
          }
          const plan = planFor(bench, driver, context);
          const check = plan.check ?? bench.check;
          const conn = connections.get(driver.name);
          const reason = plan.unsupported ? null : (setupFailed.get(bench.name) ?? conn.error);
          if (plan.unsupported || reason) {
            cell.done = true;
            cell.row = setRow(entry, plan.unsupported
              ? { driver: driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: `not supported by driver: ${plan.unsupported}` }
              : failedRow(driver, plan.protocol, reason));
            progress?.done(bench, cell.row, round);
            continue;
          }
          progress?.start(bench, driver, round);
          let sharedPool = null;
          try {
            await bench.beforeCell?.(admin, context);
            // Pool benches: `concurrency` callers share one pool of that size from the driver itself.
            if (plan.pool) sharedPool = await driver.createPool(target, settings.concurrency);
            const ops = plan.pool
              ? Array.from({ length: settings.concurrency }, () => plan.op(sharedPool))
              : conn.conns.map((c) => plan.op(c));
            const m = await measure({
              name: `${bench.name} ${driver.name}`,
              ops,
              check,
              time: settings.time,
              warmup: settings.warmup,
              minSamples: settings.minSamples,
              callTimeoutMs: settings.callTimeoutMs,
              signal,
              latencies: cell.latencies,
            });
            await bench.verify?.(admin, context);
            if (sharedPool) await within(sharedPool.close(), 5000);
            sharedPool = null;
            cell.rounds.push({
              opsPerSec: m.opsPerSec, rme: m.rme, samples: m.samples, opsPerCall: m.opsPerCall,
              sampleOpsPerSec: m.sampleOpsPerSec.map(round1),
            });
            const agg = aggregateRounds(cell.rounds);
            cell.row = setRow(entry, {
              driver: driver.name,
              protocol: plan.protocol,
              ok: true,
              status: 'ok',
              error: null,
              opsPerSec: agg.opsPerSec,
              rme: agg.rme,
              samples: agg.samples,
              spreadPct: agg.spreadPct,
              connections: settings.concurrency,
              pool: plan.pool ? { size: settings.concurrency, callers: settings.concurrency } : undefined,
              operations: cell.latencies.length,
              latency: latencyOf(cell.latencies),
              // A bench's own figures for the row (e.g. transfer: retries, deadlocks, p95).
              workload: bench.summarize?.({ driver: driver.name, latencyUs: cell.latencies.toArray() }, context),
              rounds: cell.rounds.map(({ sampleOpsPerSec, ...r }) => r),
              sampleOpsPerSec: agg.sampleOpsPerSec,
            });
            progress?.done(bench, { ...cell.row, ...cell.rounds.at(-1) }, round);
            await releaseCaches(driver);
          } catch (err) {
            if (sharedPool) await within(Promise.resolve(sharedPool.close()).catch(() => {}), 5000);
            cell.done = true;
            if (signal?.aborted) {
              // Rows measured in earlier rounds stay; this cell's unfinished round is dropped.
              if (!cell.row) setRow(entry, failedRow(driver, plan.protocol, `stopped: ${errorText(signal.reason)}`));
              throw signal.reason;
            }
            cell.row = setRow(entry, failedRow(driver, plan.protocol, errorText(err)));
            progress?.done(bench, cell.row, round);
            // A failed cell may leave its connections mid-reply: replace them before the next bench.
            await closeConnections(conn.conns, { force: true });
            if (!(await serverAlive())) {
              throw new ServerLost(`lost the server during ${bench.name} on ${driver.name}: ${errorText(err)}`);
            }
            await connect(driver);
          }
        }
      }
    }
  } finally {
    await Promise.all([...connections.values()].filter((p) => p.conns).map((p) => closeConnections(p.conns)));
  }
  return results;
}

/**
 * Let a driver drop what it caches across connections (mysql2's compiled row parsers: up to 15 000
 * of them after the random-alias benches, ~200 MB of heap), so that every cell starts from the same
 * driver state and one driver's retained memory does not slow the next cells' garbage collection.
 */
async function releaseCaches(driver) {
  try {
    await driver.releaseCaches?.();
  } catch { /* an adapter's housekeeping never fails a cell */ }
}

function failedRow(driver, protocol, error) {
  return { driver: driver.name, protocol: protocol ?? 'n/a', ok: false, status: 'failed', error };
}
