// The stage one run plays on: the server (embedded or remote) with the harness's admin connection,
// where the server and the harness run (CPU placement, the same for every driver), and, with --rtt,
// the latency proxy between the drivers and the server. Opened before the benches, closed after.
import { DEFAULT_PLACEMENT, canPin, pin, planPlacement } from '../measuring/placement.js';
import { openServer } from './session.js';
import { describeAddedDelay, startProxy, summarizeAddedDelay } from './proxy/index.js';

/** CPU placement: planned for this server, the server and the harness pinned; recorded in the settings. */
function placeServer(session, { opts, settings, log }) {
  const placement = planPlacement(opts.cpus ?? DEFAULT_PLACEMENT, { embedded: session.serverInfo.embedded, pinning: canPin() });
  if (placement.note) log(`placement: ${placement.note}`);
  pin(session.serverPid, placement.server);
  pin(process.pid, placement.harness);
  settings.placement = placement;
  return placement;
}

/** The latency proxy, off the measured CPU; the drivers' target goes through it, the admin connection does not. */
async function openProxy(target, { network, placement, log }) {
  const proxy = await startProxy(target, network.rttMs);
  pin(proxy.pid, placement.harness ?? placement.server ?? placement.client); // off the measured CPU
  log(`network: +${network.rttMs} ms RTT through a latency proxy (pid ${proxy.pid}) that holds every chunk `
    + `at least ${network.rttMs / 2} ms each way; what it added is measured over the run`);
  return proxy;
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
  if (network.rttMs > 0) {
    stage.proxy = await openProxy(stage.target, { network, placement: stage.placement, log });
    stage.target = { ...stage.target, host: stage.proxy.host, port: stage.proxy.port, socket: undefined };
  }
  return stage;
}

/** Close what openStage opened; what the proxy added is recorded in the settings (and the results'). */
export async function closeStage(stage, { settings, results, log }) {
  if (stage.proxy) {
    Object.assign(settings.network, summarizeAddedDelay(await stage.proxy.report()));
    if (results) results.settings.network = { ...settings.network };
    log(describeAddedDelay(settings.network));
    await stage.proxy.stop();
  }
  await stage.session?.close();
}
