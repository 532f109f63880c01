// Options from files: a config file (mysql-driver-bench.config.json in the current directory, or
// --config <file>) holding the flags' long names in camelCase, and --from <results.json>, a run to
// repeat. Precedence: the command line, then --from, then the config file, then the defaults.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageError } from '../common/errors.js';
import { addSecret } from '../common/redact.js';
import { readResults } from '../results/file.js';
import { PRESETS, REPLAY_LEAD_S } from '../resolve-run.js';
import { windowLead } from '../measuring/figures/window-sizing.js';
import { NETWORK_PROFILES } from '../server/proxy/index.js';
import { parseWake } from '../measuring/host/wake.js';
import { benchOptionSpecs } from '../measuring/run/catalogue.js';

export const CONFIG_FILE = 'mysql-driver-bench.config.json';
// Options a config file cannot hold: the ones that choose files of options, and commander's own.
const NOT_IN_CONFIG = new Set(['config', 'version', 'help']);

const presetOf = (s) => (s.mode === 'smoke' ? PRESETS.smoke : s.mode === 'ci' ? PRESETS.ci : s.rate ? PRESETS.rate : PRESETS.default);

/**
 * Pure: the option values that give a run the settings recorded in `results`. A length left at its
 * default stays so (it was scaled to the run's size); one asked for is given again.
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
  // The run's own benches come back from their files (--bench-file, --sql), not by name.
  const own = s.ownBenches;
  if (own) {
    if (own.benchFile.length) o.benchFile = [...own.benchFile];
    if (own.sql.length) o.sql = [...own.sql];
    if (own.setup) o.setup = own.setup;
    if (own.prepared) o.prepared = true;
    if (own.allowWrites) o.allowWrites = true;
  }
  const builtIn = own ? s.benches.filter((name) => !own.ownNames?.includes(name)) : [...s.benches];
  return { options: o, benches: builtIn, releaseRanges: s.releaseRanges ?? null };
}

/** The options a results file decides in a --from run, whether it names them or leaves them at their defaults. */
export const REPEATED_OPTIONS = ['smoke', 'ci', 'drivers', 'baseline', 'concurrency', 'rounds', 'time', 'lead', 'warmup', 'processes',
  'workers', 'precision', 'maxRounds', 'wake', 'jit', 'cpus', 'rtt', 'network', 'rttVia', 'replay', 'count', 'rate', 'schedule',
  'latencyLimit', 'shard', 'floor', 'runtimes'];

/** Options that go together: one of them on the command line beside --from sets the others to their defaults. */
export const OPTION_GROUPS = [['smoke', 'ci'], ['rtt', 'network'], ['drivers', 'baseline'], ['rate', 'schedule', 'latencyLimit']];

const fromCli = (cmd, key) => cmd.getOptionValueSource(key) === 'cli';

/** A list may be an array, a number a number: given to the flag's parser as text. */
function configValue(option, value, file) {
  const key = option.attributeName();
  if (!option.required && !option.optional) {
    if (typeof value !== 'boolean') throw usageError(`config file '${file}': ${key} is a switch (${option.long}): give true or false, not ${JSON.stringify(value)}`);
    return option.negate ? !value : value;
  }
  if (option.optional && typeof value === 'boolean') return value;
  if (value === null || typeof value === 'object' && !Array.isArray(value)) {
    throw usageError(`config file '${file}': ${key} must be a string, a number or a list, not ${JSON.stringify(value)}`);
  }
  const text = Array.isArray(value) ? value.join(',') : String(value);
  try {
    return option.parseArg ? option.parseArg(text, undefined) : text;
  } catch (err) {
    throw usageError(`config file '${file}': ${err.message}`);
  }
}

export function readConfig(cmd, { cwd = process.cwd() } = {}) {
  const asked = cmd.getOptionValue('config');
  const file = asked ?? (existsSync(join(cwd, CONFIG_FILE)) ? CONFIG_FILE : null);
  if (file === null) return null;
  let data;
  try {
    data = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
  } catch (err) {
    throw usageError(`cannot read config file '${file}': ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw usageError(`config file '${file}' must hold a JSON object of options`);
  const options = new Map(cmd.options.map((o) => [o.attributeName(), o]));
  const values = {};
  for (const [key, value] of Object.entries(data)) {
    const option = NOT_IN_CONFIG.has(key) ? undefined : options.get(key);
    if (!option) throw usageError(`unknown option '${key}' in config file '${file}'`, 'its keys are the long option names in camelCase, e.g. drivers, rounds, rttVia');
    if (key === 'password') addSecret(String(value));
    values[key] = configValue(option, value, file);
  }
  return { file, values };
}

/** The config file's and --from's options set on the parsed root command where the command line gave none. */
export function applyOptionFiles(cmd, benchNames, { cwd = process.cwd() } = {}) {
  const config = readConfig(cmd, { cwd });
  for (const [key, value] of Object.entries(config?.values ?? {})) {
    if (!fromCli(cmd, key)) cmd.setOptionValueWithSource(key, value, 'config');
  }
  const fromFile = cmd.getOptionValue('from');
  if (!fromFile) return { benchNames, from: null, releaseRanges: null, configFile: config?.file ?? null };
  const results = readResults(resolve(cwd, fromFile));
  const { options, benches, releaseRanges } = optionsFromResults(results);
  const byKey = new Map(cmd.options.map((o) => [o.attributeName(), o]));
  const keys = [...new Set([...REPEATED_OPTIONS, ...Object.keys(options)])].filter((k) => byKey.has(k));
  const overridden = new Set(OPTION_GROUPS.filter((g) => g.some((k) => fromCli(cmd, k))).flat());
  for (const key of keys) {
    if (fromCli(cmd, key)) continue;
    const value = overridden.has(key) || !(key in options) ? byKey.get(key).defaultValue : options[key];
    cmd.setOptionValueWithSource(key, value, 'from');
  }
  return {
    benchNames: benchNames?.length ? benchNames : benches,
    from: { file: fromFile, results },
    releaseRanges: overridden.has('drivers') ? null : releaseRanges,
    configFile: config?.file ?? null,
  };
}
