// The stage one run plays on: the server (embedded or remote) with the harness's admin connection,
// where the server and the harness run (CPU placement, the same for every driver), and, with --rtt,
// the latency proxy between the drivers and the server. Opened before the benches, closed after.
import { canPin, defaultPlacement, pin, pinThreads, planPlacement } from '../common/placement.js';
import { openServer } from './session.js';
import { describeAddedDelay, describeHeld, describeRowHolds, startProxy, summarizeAddedDelay, proxyPlacement, describeCalibration } from './proxy/index.js';
import { calibrateProxy, CALIBRATE_MAX_RTT_MS, probeSize, startProbe } from './proxy/calibrate.js';

/** CPU placement: planned for this server, the server and the harness pinned; recorded in the settings. */
function placeServer(session, { opts, settings, log }) {
  const placement = planPlacement(opts.cpus ?? defaultPlacement(opts), { embedded: session.serverInfo.embedded, pinning: canPin() });
  if (placement.note) log(`placement: ${placement.note}`);
  pin(session.serverPid, placement.server);
  pin(process.pid, placement.harness);
  settings.placement = placement;
  return placement;
}

/**
 * The latency proxy, off the measured CPU (spinning while it holds chunks when that CPU is its own), tuned
 * from the drivers' CPU so that a client sees the asked round trip (proxy/calibrate.js). The drivers'
 * target goes through it, the admin connection does not.
 */
async function openProxy(stage, { network, settings, log }) {
  const { placement } = stage;
  const where = proxyPlacement(placement);
  const proxy = await startProxy(stage.target, network.rttMs, { waits: where.waits });
  stage.proxy = proxy;
  pin(proxy.pid, where.cpus);
  settings.network.proxy = where;
  log(`network: +${network.rttMs} ms RTT through a latency proxy (pid ${proxy.pid}, ${where.note})`);
  stage.direct = stage.target;
  stage.probeVia = { ...stage.target, host: proxy.host, port: proxy.port, socket: undefined };
  await tuneHold(stage, { network, settings });
  log(describeCalibration(network.rttMs, settings.network.calibration));
}

/**
 * --rtt-via process: each driver process holds its own connections' chunks (drivers/held-sockets.js),
 * with the hold tuned by a probe that holds its connection the same way, then by each row on its own
 * driver (measuring/driver/held-tuning.js, heldRttMs) where the probe tuned it. No process between drivers
 * and server; the admin connection is not held.
 */
async function holdInDriverProcesses(stage, { network, settings, log }) {
  stage.direct = stage.target;
  log(`network: +${network.rttMs} ms RTT held in each driver process (each chunk, each way, in order; the process spins while it holds)`);
  await tuneHold(stage, { network, settings });
  log(describeCalibration(network.rttMs, settings.network.calibration));
  const heldRttMs = settings.network.calibration.calibrated ? network.rttMs : undefined;
  return { ...stage.target, heldOneWayMs: settings.network.holdMs, heldRttMs };
}

/**
 * Tune the hold each way (the proxy's, or the driver processes' when there is no proxy) from a probe
 * placed as the drivers are (proxy/calibrate.js); sets settings.network.calibration and holdMs. Above
 * CALIBRATE_MAX_RTT_MS, or when the probe fails, the hold is half the RTT.
 */
async function tuneHold(stage, { network, settings }) {
  const { rttMs } = network;
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
  settings.network.calibration = calibration;
  settings.network.holdMs = calibration.holdMs ?? rttMs / 2;
}

/** The probe process, placed as the drivers are: straight to the server and through the proxy, or with a connection held in itself. */
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

/**
 * Open the stage: the server, placement, and the proxy when the run asks for a round-trip time.
 * Returns { session, placement, proxy, target } (target: where the drivers connect). Every part
 * opened is set on `stage` as soon as it is, so closeStage(stage) cleans up after a failure too.
 */
export async function openStage(stage, { opts, env, settings, network, log, signals, tls = false }) {
  stage.session = await openServer({ opts, env, log, abort: signals.abort, signal: signals.signal, tls });
  stage.target = stage.session.target;
  stage.placement = placeServer(stage.session, { opts, settings, log });
  if (network.rttMs > 0 && network.via === 'proxy') {
    await openProxy(stage, { network, settings, log });
    stage.target = stage.probeVia;
  } else if (network.rttMs > 0) {
    stage.target = await holdInDriverProcesses(stage, { network, settings, log });
  }
  return stage;
}

/** Close what openStage opened; what the proxy added is recorded in the settings (and the results'). */
export async function closeStage(stage, { settings, results, log }) {
  if (stage.proxy) {
    Object.assign(settings.network, summarizeAddedDelay(await stage.proxy.report()));
    const after = await probeAfter(stage, settings.network);
    if (after) settings.network.calibration.after = after;
    if (results) results.settings.network = { ...settings.network };
    log(describeAddedDelay(settings.network));
    await stage.proxy.stop();
  } else if (stage.direct && settings.network?.rttMs > 0) {
    const after = await probeAfter(stage, settings.network);
    if (after) settings.network.calibration.after = after;
    if (results) results.settings.network = { ...settings.network };
    log(describeHeld(settings.network));
    for (const line of describeRowHolds(results)) log(line);
  }
  await stage.session?.close();
}
