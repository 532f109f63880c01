// The stage one run plays on: the server with the harness's admin connection, the CPU placement (the
// same for every driver) and, with --rtt, the added round trip. Opened before the benches, closed after.
import { canPin, pin, pinThreads, planPlacement } from '../common/placement.js';
import { openServer } from './session.js';
import { describeAddedDelay, describeHeld, describeRowHolds, startProxy, summarizeAddedDelay, proxyPlacement, describeCalibration } from './proxy/index.js';
import { calibrateProxy, CALIBRATE_MAX_RTT_MS, probeSize, startProbe } from './proxy/calibrate.js';

function placeServer(session, { cpus, log }) {
  const placement = planPlacement(cpus, { embedded: session.serverInfo.embedded, pinning: canPin() });
  if (placement.note) log(`placement: ${placement.note}`);
  pin(session.serverPid, placement.server);
  pin(process.pid, placement.harness);
  return placement;
}

/** The latency proxy, off the measured CPU, tuned from the drivers' CPU; the admin connection bypasses it. */
async function openProxy(stage, { network, log }) {
  const where = proxyPlacement(stage.placement);
  const proxy = await startProxy(stage.target, network.rttMs, { waits: where.waits });
  stage.proxy = proxy;
  stage.network = { ...network, proxy: where };
  pin(proxy.pid, where.cpus);
  log(`network: +${network.rttMs} ms RTT through a latency proxy (pid ${proxy.pid}, ${where.note})`);
  stage.direct = stage.target;
  stage.probeVia = { ...stage.target, host: proxy.host, port: proxy.port, socket: undefined };
  stage.network = { ...stage.network, ...await tuneHold(stage, network.rttMs) };
  log(describeCalibration(network.rttMs, stage.network.calibration));
  return stage.probeVia;
}

/**
 * --rtt-via process: each driver process holds its own chunks (drivers/held-sockets.js), tuned by a
 * probe held the same way, then by each row (measuring/driver/held-tuning.js) where the probe tuned it.
 */
async function holdInDriverProcesses(stage, { network, log }) {
  stage.direct = stage.target;
  stage.network = network;
  log(`network: +${network.rttMs} ms RTT held in each driver process (each chunk, each way, in order; the process spins while it holds)`);
  stage.network = { ...network, ...await tuneHold(stage, network.rttMs) };
  log(describeCalibration(network.rttMs, stage.network.calibration));
  const heldRttMs = stage.network.calibration.calibrated ? network.rttMs : undefined;
  return { ...stage.target, heldOneWayMs: stage.network.holdMs, heldRttMs };
}

/** The hold each way, tuned from a probe placed as the drivers are; above CALIBRATE_MAX_RTT_MS or on failure, half the RTT. */
async function tuneHold(stage, rttMs) {
  let calibration;
  if (rttMs > CALIBRATE_MAX_RTT_MS) {
    calibration = { calibrated: false, why: `above ${CALIBRATE_MAX_RTT_MS} ms the path's own cost is under 0.5 % of the RTT` };
  } else {
    let probe = null;
    try {
      probe = await openProbe(stage, rttMs / 2);
      calibration = { calibrated: true, ...await calibrateProxy(stage.proxy ?? probe, probe, rttMs) };
    } catch (err) {
      // The run goes on with the full hold each way: the client sees the RTT plus the path's own cost.
      await stage.proxy?.setHold(rttMs / 2);
      calibration = { calibrated: false, why: err.message };
    } finally {
      await probe?.stop();
    }
  }
  return { calibration, holdMs: calibration.holdMs ?? rttMs / 2 };
}

function openProbe(stage, heldOneWayMs) {
  const { client, harness } = stage.placement;
  const place = (pid) => pinThreads(pid, client, harness);
  return stage.proxy ? startProbe({ direct: stage.direct, proxied: stage.probeVia, place })
    : startProbe({ direct: stage.direct, heldOneWayMs, place });
}

/** After the run: what the client sees added now, at the hold the run used (not tuned again). */
async function probeAfter(stage, network) {
  if (!network.calibration?.calibrated) return null;
  let probe = null;
  try {
    probe = await openProbe(stage, network.holdMs);
    return await probe.measure(probeSize(network.rttMs), network.rttMs);
  } catch (err) {
    return { error: err.message };
  } finally {
    await probe?.stop();
  }
}

/** `stage.target` is where the drivers connect. A failure part-way closes what was opened before it is thrown. */
export async function openStage({ flags, cpus, env, network, log, signals, tls = false }) {
  const stage = {};
  try {
    stage.session = await openServer({ flags, env, log, abort: signals.abort, signal: signals.signal, tls });
    stage.target = stage.session.target;
    stage.placement = placeServer(stage.session, { cpus, log });
    if (network.rttMs > 0) stage.target = network.via === 'proxy' ? await openProxy(stage, { network, log }) : await holdInDriverProcesses(stage, { network, log });
    return { stage, placement: stage.placement, network: stage.network ?? network };
  } catch (err) {
    await dropStage(stage);
    throw err;
  }
}

/** Close a stage that failed before its run measured anything: nothing to report. */
export async function dropStage(stage) {
  await stage.proxy?.stop().catch(() => {});
  await stage.session?.close().catch(() => {});
}

/** With a round-trip time, returns the network as the results keep it (with what the client sees added now), else null. */
export async function closeStage(stage, { benches, log }) {
  let network = null;
  if (stage.proxy || (stage.direct && stage.network)) {
    const held = stage.proxy ? summarizeAddedDelay(await stage.proxy.report()) : {};
    const after = await probeAfter(stage, { ...stage.network, ...held });
    network = { ...stage.network, ...held, ...(after ? { calibration: { ...stage.network.calibration, after } } : {}) };
    const lines = stage.proxy ? [describeAddedDelay(network)] : [describeHeld(network), ...describeRowHolds({ benches })];
    for (const line of lines) log(line);
    await stage.proxy?.stop();
  }
  await stage.session?.close();
  return network;
}
