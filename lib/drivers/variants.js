// Option variants: `mysql2:disableEval=true` is mysql2 with a connection option of its own, as a row
// labelled with its options. Overriding an option the fairness rules fix needs --override-fairness
// (docs/comparing.md, "Option variants"). The connection target is the harness's, always.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../common/errors.js';

export const FAIRNESS_OPTIONS = ['charset', 'charsetNumber', 'collation', 'trace', 'compress', 'compression'];
const TARGET_OPTIONS = ['host', 'port', 'user', 'password', 'database', 'socketPath', 'ssl', 'mysqlWrapper'];
const OPTION = /^([A-Za-z_]\w{0,63})=(.{0,200})$/;

/** A value as written on the command line -> boolean, number, null or string. */
export function parseOptionValue(text) {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/**
 * `mysql2:disableEval=true:rowsAsArray=true` -> { base: 'mysql2', options: {...}, written: [...] }.
 * Options are the trailing `:name=value` parts, so a `file:` spec keeps its colon.
 */
export function splitVariant(spec) {
  const parts = spec.split(':');
  const written = [];
  while (parts.length > 1 && OPTION.test(parts[parts.length - 1])) written.unshift(parts.pop());
  const options = Object.fromEntries(written.map((w) => {
    const [, name, value] = OPTION.exec(w);
    return [name, parseOptionValue(value)];
  }));
  return { base: parts.join(':'), options, written };
}

export const fairnessOverrides = (options) => Object.keys(options).filter((n) => FAIRNESS_OPTIONS.includes(n));

/** Problems the harness refuses whatever the driver says: the target, and the fairness rules. */
export function assertAllowedOptions(spec, options, { overrideFairness = false } = {}) {
  const names = Object.keys(options);
  const target = names.filter((n) => TARGET_OPTIONS.includes(n));
  if (target.length) {
    throw usageError(`${spec}: ${target.join(', ')} ${target.length > 1 ? 'are' : 'is'} set by the harness for every driver`,
      'give the server with --host/--port/--user/--database (or DB_* variables), not per driver');
  }
  const fixed = fairnessOverrides(options);
  if (fixed.length && !overrideFairness) {
    throw usageError(`${spec}: ${fixed.join(', ')} ${fixed.length > 1 ? 'are' : 'is'} fixed for every driver by the fairness rules`,
      'add --override-fairness to measure it anyway (the row is then marked as not comparable)');
  }
  return fixed;
}

// Each driver's own configuration class: the names it accepts are what it keeps (or, for mysql2,
// what it does not warn about).
const CONFIG_FILES = { mysql: 'lib/ConnectionConfig.js', mysql2: 'lib/connection_config.js', mariadb: 'lib/config/connection-options.js' };

async function loadConfigClass(pkg, dir) {
  const file = dir && join(dir, CONFIG_FILES[pkg] ?? '');
  if (!file || !CONFIG_FILES[pkg] || !existsSync(file)) return null;
  if (pkg === 'mariadb') return (await import(pathToFileURL(file).href)).default;
  return createRequire(file)(file);
}

function configOf(Config, options) {
  const warnings = [];
  const original = console.error;
  console.error = (...args) => { warnings.push(args.join(' ')); };
  try {
    return { config: new Config(options), warnings };
  } catch (err) {
    return { error: err, warnings };
  } finally {
    console.error = original;
  }
}

const comparable = (config) => JSON.stringify(config, (k, v) => (typeof v === 'function' ? `fn:${v.name}` : typeof v === 'bigint' ? `${v}n` : v));

/** Names the driver's own configuration class does not accept; null where it cannot be asked (they go as given). */
export async function unknownOptions(pkg, dir, options) {
  const Config = await loadConfigClass(pkg, dir).catch(() => null);
  if (typeof Config !== 'function') return null;
  const plain = configOf(Config, {});
  if (plain.error) return null;
  return Object.entries(options).filter(([name, value]) => {
    const got = configOf(Config, { [name]: value });
    if (got.error) return false; // the driver read it (and will say what it thinks of the value)
    if (got.warnings.some((w) => w.includes(name))) return true; // mysql2: "Ignoring invalid configuration option"
    return !Object.hasOwn(got.config, name) && comparable(got.config) === comparable(plain.config);
  }).map(([name]) => name);
}

export const variantLabel = (baseName, written) => [baseName, ...written].join(':');

export const ROWS_AS_ARRAYS_NOTE = 'rows as arrays (rowsAsArray): rows read one at a time carry no column names to check them by';

const columnName = (column) => (typeof column?.name === 'function' ? column.name() : column?.name);

/** Rows read as arrays (`rowsAsArray`) as objects named by their column definitions, for a check. */
export function rowsAsObjects(result) {
  if (!Array.isArray(result) || !Array.isArray(result[0])) return result;
  const columns = result.fields ?? result.meta;
  if (!Array.isArray(columns)) return result;
  const names = columns.map(columnName);
  return result.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]])));
}

/** A bench's check, reading array rows by column name when the driver was asked for arrays. */
export function withRowShape(check, driver) {
  if (!check || !driver.extraOptions?.rowsAsArray) return check;
  return (result) => check(rowsAsObjects(result));
}
