// Runs the bench x driver matrix and produces plain result rows. No rendering here.
import { measure } from './sampler.js';
import { latencySummary } from './stats.js';
import { redact } from './redact.js';
import { within } from './timers.js';

export class ServerLost extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServerLost';
  }
}

/** Driver order for the i-th bench: rotated so no driver always goes first or last. */
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
 * @param {object} p
 * @param {Array} p.benches bench modules
 * @param {Array} p.drivers driver adapters
 * @param {object} p.admin the harness's own connection (setup, verification), not measured
 * @param {object} p.target connection target for the drivers
 * @param {object} p.context { schema, server } handed to benches
 * @param {object} p.settings { concurrency, time, warmup, minSamples }
 * @param {object} p.results the results object; rows are appended as they are measured
 * @param {AbortSignal} p.signal aborts the run (Ctrl-C, server lost)
 * @param {object} p.progress { start(bench, driver), done(bench, row) }
 * @param {() => Promise<boolean>} p.serverAlive
 */
export async function runMatrix({ benches, drivers, admin, target, context, settings, results, signal, progress, serverAlive }) {
  const connections = new Map(); // driver name -> { conns } or { error }

  const connect = async (driver) => {
    try {
      connections.set(driver.name, { conns: await openConnections(driver, target, settings.concurrency) });
    } catch (err) {
      connections.set(driver.name, { error: `cannot connect: ${errorText(err)}` });
    }
  };
  for (const d of drivers) await connect(d);

  try {
    for (let b = 0; b < benches.length; b++) {
      const bench = benches[b];
      signal?.throwIfAborted();
      const entry = {
        name: bench.name, title: bench.title, sql: bench.sql,
        note: bench.note ? bench.note(context) : undefined,
        order: [], results: [],
      };
      results.benches.push(entry);
      try {
        await bench.setup?.(admin, context);
      } catch (err) {
        for (const d of drivers) entry.results.push(failedRow(d, null, `bench setup failed: ${errorText(err)}`));
        if (!(await serverAlive())) throw new ServerLost(`lost the server while setting up ${bench.name}`);
        continue;
      }

      for (const driver of rotate(drivers, b)) {
        signal?.throwIfAborted();
        entry.order.push(driver.name);
        const plan = bench.plan(driver, context);
        if (plan.unsupported) {
          entry.results.push({ driver: driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: `not supported by driver: ${plan.unsupported}` });
          progress?.done(bench, entry.results.at(-1));
          continue;
        }
        const conn = connections.get(driver.name);
        if (conn.error) {
          entry.results.push(failedRow(driver, plan.protocol, conn.error));
          progress?.done(bench, entry.results.at(-1));
          continue;
        }
        progress?.start(bench, driver);
        let row;
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
            check: (r) => bench.check(r),
            time: settings.time,
            warmup: settings.warmup,
            minSamples: settings.minSamples,
            callTimeoutMs: settings.callTimeoutMs,
            signal,
          });
          await bench.verify?.(admin, context);
          if (sharedPool) await within(sharedPool.close(), 5000);
          sharedPool = null;
          row = {
            driver: driver.name,
            protocol: plan.protocol,
            ok: true,
            status: 'ok',
            error: null,
            opsPerSec: m.opsPerSec,
            rme: m.rme,
            samples: m.samples,
            sampleOpsPerSec: m.sampleOpsPerSec.map((x) => Math.round(x * 10) / 10),
            opsPerCall: m.opsPerCall,
            connections: conn.conns.length,
            operations: m.ops,
            latency: latencySummary(m.latencyUs),
          };
        } catch (err) {
          if (signal?.aborted) {
            entry.results.push(failedRow(driver, plan.protocol, `stopped: ${errorText(signal.reason)}`));
            throw signal.reason;
          }
          row = failedRow(driver, plan.protocol, errorText(err));
          if (sharedPool) await within(Promise.resolve(sharedPool.close()).catch(() => {}), 5000);
          // A failed cell may leave its connections mid-reply: replace them before the next bench.
          await closeConnections(conn.conns, { force: true });
          if (!(await serverAlive())) {
            entry.results.push(row);
            throw new ServerLost(`lost the server during ${bench.name} on ${driver.name}: ${errorText(err)}`);
          }
          await connect(driver);
        }
        entry.results.push(row);
        progress?.done(bench, row);
      }
    }
  } finally {
    await Promise.all([...connections.values()].filter((p) => p.conns).map((p) => closeConnections(p.conns)));
  }
  return results;
}

function failedRow(driver, protocol, error) {
  return { driver: driver.name, protocol: protocol ?? 'n/a', ok: false, status: 'failed', error };
}
