// The stage of a --replay run: no server in the measured part. A missing replay set is captured first
// from the real server, which is closed again before anything is measured; the benches are then the
// replayed ones: no set-up, no table checks, each driver answered in its own process (docs/replay.md).
import { DriverHandle } from '../measuring/processes/driver-handle.js';
import { setUpBench } from '../measuring/bench/plan.js';
import { canPin, pin, planPlacement } from '../common/placement.js';
import { embeddedServerVersion } from '../server/embedded.js';
import { openServer, serverSource } from '../server/session.js';
import { benchIdentity, driverIdentity, findSet, saveSet } from '../conversations/sets.js';

// Enough to hold a bench's varying replies (insert ids, random numbers) without making a set of
// select_1000_rows more than about 1 MB.
export const CAPTURE_OPS = 24;

export const REPLAY_NOTE = 'client cost: each driver answered in its own process by the server\'s recorded replies (no socket, no server)';

function lookUp({ benches, drivers, dir, source, liveVersion, recapture }) {
  const wanted = [];
  for (const bench of benches.filter((b) => !b.notReplayable)) {
    for (const driver of drivers.filter((d) => !d.bareLoopOf)) {
      const did = driverIdentity(driver);
      const identity = did && { bench: benchIdentity(bench), driver: did, server: source };
      const entry = { bench, driver, identity, found: null, why: null };
      if (!identity) entry.why = 'a local checkout is captured afresh every run';
      else if (recapture) entry.why = '--recapture';
      else {
        entry.found = findSet(dir, identity);
        const recorded = entry.found?.set.server?.version;
        if (!entry.found) entry.why = 'none stored';
        else if (liveVersion && recorded && recorded !== liveVersion) {
          entry.why = `recorded from ${recorded}, the server is now ${liveVersion}`;
          entry.found = null;
        }
      }
      wanted.push(entry);
    }
  }
  return wanted;
}

const label = (e) => `${e.bench.name} on ${e.driver.name}`;

/** A driver's failed capture fails its row (entry.failed) and never stores a set. */
async function capture(missing, { dir, source, flags, env, log, signals }) {
  let session;
  let closing = false; // the server stopped after capturing is no loss
  const abort = (reason) => { if (!closing) signals.abort(reason); };
  try {
    session = await openServer({ flags, env, log, abort, signal: signals.signal });
  } catch (err) {
    const what = missing.length === 1 ? label(missing[0]) : `${missing.length} bench × driver pairs (${label(missing[0])}, …)`;
    err.message = `--replay has no stored replay set for ${what}, and capturing one needs the server: ${err.message}`;
    throw err;
  }
  const processes = new Map();
  try {
    log(`replay: capturing ${missing.length} replay set(s) from ${session.serverInfo.version} (${CAPTURE_OPS} checked operations each)`);
    for (const bench of [...new Set(missing.map((e) => e.bench))]) {
      signals.signal?.throwIfAborted();
      const context = await setUpBench(bench, session.admin, session.context);
      for (const entry of missing.filter((e) => e.bench === bench)) {
        try {
          let handle = processes.get(entry.driver.name);
          if (!handle) {
            handle = await DriverHandle.start({ driver: entry.driver, target: { ...session.target, capture: true }, context: session.context });
            processes.set(entry.driver.name, handle);
          }
          const got = await handle.turn('capture', { bench: bench.name, setupData: context.setupData, ops: CAPTURE_OPS }, 60000);
          const identity = entry.identity ?? { bench: benchIdentity(bench), driver: { spec: `${entry.driver.name}-local`, local: true }, server: source };
          const notApplicable = got.unsupported ? { unsupported: got.unsupported } : got.unavailable ? { unavailable: got.unavailable } : undefined;
          const file = saveSet(dir, { identity, server: session.serverInfo, setupData: context.setupData, recording: got.recording, notApplicable });
          entry.found = { file, set: { notApplicable, setupData: context.setupData ?? null, server: session.serverInfo } };
        } catch (err) {
          entry.failed = `replay capture failed: ${err.message}`;
        }
      }
    }
  } finally {
    await Promise.all([...processes.values()].map((h) => h.end()));
    closing = true;
    await session.close();
  }
}

function replayedBench(bench, entries) {
  if (bench.notReplayable) {
    return { ...bench, setup: undefined, beforeWindow: undefined, verify: undefined, probe: undefined, note: undefined, plan: () => ({ unavailable: `n/a under --replay: ${bench.notReplayable}` }) };
  }
  const mine = entries.filter((e) => e.bench === bench);
  const stored = mine.find((e) => e.found && !e.found.set.notApplicable)?.found.set;
  const naOf = new Map(mine.filter((e) => e.found?.set.notApplicable).map((e) => [e.driver.name, e.found.set.notApplicable]));
  const setupData = stored?.setupData ?? null;
  const tableChecks = Boolean(bench.verify || bench.beforeWindow);
  return {
    ...bench,
    setup: setupData === null ? undefined : async () => ({ shared: setupData }),
    beforeWindow: undefined,
    verify: undefined,
    probe: undefined,
    note: (ctx) => [bench.note?.(ctx), tableChecks ? 'replay: the recorded OK packets are replayed; the check reads them, not the table' : null].filter(Boolean).join('; ') || undefined,
    plan: (driver, ctx) => naOf.get(driver.name) ?? bench.plan(driver, ctx),
    // A set's path, or { failed }: each row's process is handed it at `open`.
    replaySets: Object.fromEntries(mine.map((e) => [e.driver.name, e.failed ? { failed: e.failed } : e.found?.file])),
  };
}

/** A stage with no server: no admin connection, nothing alive to lose, a target that is never reached. */
export async function openReplayStage({ benches, drivers, flags, cpus, out, recapture, env, log, signals }) {
  const dir = out;
  const where = serverSource({ flags, env });
  const source = where.embedded ? { embedded: true } : { embedded: false, address: where.address, database: where.database };
  const liveVersion = where.embedded ? embeddedServerVersion() : null;
  const entries = lookUp({ benches, drivers, dir, source, liveVersion, recapture });
  const missing = entries.filter((e) => !e.found);
  // A repeat (mysql2#2) replays its driver's set: captured once, under the first row that needs it.
  const keyOf = (e) => (e.identity ? JSON.stringify([e.identity.bench, e.identity.driver]) : `${e.bench.name}\u0000${e.driver.name}`);
  const firstOf = new Map();
  for (const e of missing) if (!firstOf.has(keyOf(e))) firstOf.set(keyOf(e), e);
  if (missing.length) await capture([...firstOf.values()], { dir, source, flags, env, log, signals });
  for (const e of missing) if (firstOf.get(keyOf(e)) !== e) Object.assign(e, { found: firstOf.get(keyOf(e)).found, failed: firstOf.get(keyOf(e)).failed });
  const server = entries.find((e) => e.found?.set.server)?.found.set.server ?? { version: 'unknown' };
  const placement = planPlacement(cpus, { embedded: false, pinning: canPin() });
  pin(process.pid, placement.harness);
  const serverInfo = { ...server, replayed: true };
  const stage = {
    placement,
    target: { host: '127.0.0.1', port: 3306, user: 'replay', password: '', database: where.database, replay: true },
    session: { admin: null, serverInfo, context: { schema: where.database, server: serverInfo }, alive: async () => true, serverPid: null, close: async () => {} },
  };
  const captured = firstOf.size - [...firstOf.values()].filter((e) => e.failed).length;
  log(`replay: ${entries.length - missing.length} replay set(s) reused, ${captured} captured; measuring with no server (${REPLAY_NOTE})`);
  return {
    stage,
    benches: benches.map((b) => replayedBench(b, entries)),
    placement,
    settings: { sets: entries.length, captured, reused: entries.length - missing.length, captureOps: CAPTURE_OPS, dir: `${dir}/replay`, server: server.version },
  };
}
