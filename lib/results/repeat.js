// A run repeated from its results file (--from): the options that give the same drivers, benches and
// settings, and what differs between the machine, Node and server it ran on and this one's.
import { PRESETS, REPLAY_LEAD_S } from '../measuring/planning/settings.js';
import { windowLead } from '../measuring/figures/window-sizing.js';
import { NETWORK_PROFILES } from '../server/proxy/index.js';
import { parseWake } from '../measuring/host/wake.js';
import { benchOptionSpecs } from '../measuring/planning/catalogue.js';

const presetOf = (s) => (s.mode === 'smoke' ? PRESETS.smoke : s.mode === 'ci' ? PRESETS.ci : s.rate ? PRESETS.rate : PRESETS.default);

/**
 * Pure: the root command's option values (commander's keys) that give a run the settings recorded in
 * `results`, and its benches. A length left at its default stays so (it was scaled to the run's size):
 * one asked for is given again. `releaseRanges` is the record of the ranges its drivers came from.
 */
export function optionsFromResults(results) {
  const s = results.settings;
  const preset = presetOf(s);
  const o = {};
  if (s.mode === 'smoke') o.smoke = true;
  if (s.mode === 'ci') o.ci = true;
  o.drivers = [...s.drivers];
  if (s.baseline) o.baseline = s.baseline;
  if (s.concurrency !== undefined) o.concurrency = s.concurrency;
  // A budget is there only when the run's rounds and time were the defaults (runSettings).
  if (s.budget == null) Object.assign(o, { rounds: s.rounds, time: s.time });
  const replayTimed = s.replay && s.mode !== 'smoke';
  if (s.lead !== undefined && s.lead !== windowLead(replayTimed ? REPLAY_LEAD_S : preset.lead, s.time / s.rounds)) o.lead = s.lead;
  if (s.warmupSettles === false && s.warmup !== undefined) o.warmup = s.warmup;
  if (s.processes !== undefined && s.processes !== preset.processes) o.processes = s.processes;
  if (s.workers > 1) o.workers = s.workers;
  if (s.precision) Object.assign(o, { precision: s.precision, maxRounds: s.maxRounds });
  if (s.wake) o.wake = parseWake(s.wake);
  if (s.jit) o.jit = s.jit;
  if (s.placement?.requested) o.cpus = s.placement.requested;
  const net = s.network;
  if (net?.rttMs > 0) {
    if (NETWORK_PROFILES[net.name] === net.rttMs) o.network = net.name;
    else o.rtt = String(net.rttMs);
    if (net.via) o.rttVia = net.via;
  }
  if (s.replay) o.replay = true;
  if (s.count?.what) o.count = s.count.what;
  if (s.rate) {
    o.rate = s.rate.rates;
    if (s.rate.schedule) o.schedule = s.rate.schedule;
    if (s.rate.latencyLimitMs != null) o.latencyLimit = s.rate.latencyLimitMs;
  }
  if (s.shard) o.shard = { index: s.shard.index, count: s.shard.count };
  for (const spec of benchOptionSpecs()) if (spec.record && s[spec.key] !== undefined) o[spec.key] = s[spec.key];
  return { options: o, benches: [...s.benches], releaseRanges: s.releaseRanges ?? null };
}

/** The options a results file decides in a --from run, whether it names them or leaves them at their defaults. */
export const REPEATED_OPTIONS = ['smoke', 'ci', 'drivers', 'baseline', 'concurrency', 'rounds', 'time', 'lead', 'warmup', 'processes',
  'workers', 'precision', 'maxRounds', 'wake', 'jit', 'cpus', 'rtt', 'network', 'rttVia', 'replay', 'count', 'rate', 'schedule',
  'latencyLimit', 'shard', 'floor', 'runtimes'];

/** Options that go together: one of them on the command line beside --from sets the others to their defaults. */
export const OPTION_GROUPS = [['smoke', 'ci'], ['rtt', 'network'], ['drivers', 'baseline'], ['rate', 'schedule', 'latencyLimit']];

const FACTS = [
  ['Node', (r) => r.env?.node],
  ['CPU model', (r) => r.env?.cpuModel],
  ['CPUs', (r) => r.env?.cpus],
  ['platform', (r) => (r.env?.platform ? `${r.env.platform} ${r.env.arch ?? ''}`.trim() : undefined)],
  ['server', (r) => (r.server?.version ? `${r.server.kind ? `${r.server.kind} ` : ''}${r.server.version}` : undefined)],
  ['harness', (r) => (r.env?.harness ? `${r.env.harness.version}${r.env.harness.commit ? ` (${r.env.harness.commit.slice(0, 12)})` : ''}` : undefined)],
];

/** Pure: one line per fact (Node, CPU, platform, server, harness) that differs between the original run and this one. */
export function describeDifferences(original, current, file) {
  const lines = [];
  for (const [label, of] of FACTS) {
    const was = of(original);
    const now = of(current);
    if (was !== undefined && String(was) !== String(now)) lines.push(`--from ${file}: ${label} differs: ${was} then, ${now ?? 'unknown'} now`);
  }
  return lines;
}
