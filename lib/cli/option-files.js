// Options from files: a config file (mysql-driver-bench.config.json in the current directory, or
// --config <file>) holding the flags' long names in camelCase, and --from <results.json>, a run to
// repeat. Precedence: the command line, then --from, then the config file, then the defaults.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageError } from '../common/errors.js';
import { addSecret } from '../common/redact.js';
import { readResults } from '../results/file.js';
import { OPTION_GROUPS, REPEATED_OPTIONS, optionsFromResults } from '../results/repeat.js';

export const CONFIG_FILE = 'mysql-driver-bench.config.json';
// Options a config file cannot hold: the ones that choose files of options, and commander's own.
const NOT_IN_CONFIG = new Set(['config', 'version', 'help']);

const fromCli = (cmd, key) => cmd.getOptionValueSource(key) === 'cli';

/** A config file's value as the flag's parser would give it: a list may be an array, a number a number. */
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

/** The config file's options (an object), or null when there is none; its problems are usage errors naming it. */
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

/**
 * Give `cmd` (the root command, parsed) the config file's and --from's options where the command line
 * gave none. Returns the benches to run (the command line's, else --from's), the results file repeated
 * ({ file, results } or null), the release ranges it recorded, and the config file's name.
 */
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
