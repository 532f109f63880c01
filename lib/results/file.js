// The results file: a versioned JSON object, never carrying a password.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { cpus, platform, release, arch, totalmem, hostname } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../common/errors.js';
import { redact } from '../common/redact.js';
import { readCountDeltas, readCountRows } from './counts.js';
import { describeRuntime } from '../drivers/runtimes.js';
import { harnessCode } from '../common/harness.js';

// 4: a counted row's deltaPct and deltaCI are its count ÷ the reference's − 1 (+ is more work; counts.js
// readCountDeltas reads 2's and 3's, which had the sign of ops/s, as 4's).
// 3: a counted row's figures in `count` (counts.js readCountRows reads 2's instructionsPerOp as it).
// 2: one process per driver, interleaved windows, paired Δ with its interval (deltaCI), cost per
// operation, placement. `compare` still reads 1. The format is published as docs/results.schema.json
// (its `schema` enum is READABLE_SCHEMAS; test/unit/results-schema.test.js holds the two together).
export const SCHEMA_VERSION = 4;
export const READABLE_SCHEMAS = [1, 2, 3, 4];

/** The host's name only with `host` (a --shard run's, for merge): a results file is made to be shared. */
export function describeEnvironment({ host = false } = {}) {
  const cpuList = cpus();
  return {
    ...(host ? { host: hostname() } : {}),
    harness: harnessCode(),
    node: process.version,
    platform: platform(),
    release: release(),
    arch: arch(),
    cpuModel: cpuList[0]?.model?.trim() ?? 'unknown',
    cpus: cpuList.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

export function createResults({ startedAt = new Date(), env, server, drivers, settings, command }) {
  return {
    schema: SCHEMA_VERSION,
    tool: 'mysql-driver-bench',
    ...(command ? { command } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    complete: false,
    stoppedBy: null,
    env,
    server,
    drivers,
    settings,
    benches: [],
  };
}

export function startResults({ server, drivers, settings, command }) {
  return createResults({
    command,
    env: describeEnvironment({ host: Boolean(settings.shard) }),
    server,
    drivers: drivers.map(describeDriver),
    settings,
  });
}

/**
 * Fail before the run when results cannot be saved: create the directory one level at a time
 * (a recursive mkdir under /proc never returns) and write a probe file (root passes access checks
 * even on a read-only file system).
 */
export function assertWritableDir(dir) {
  const abs = resolve(dir);
  try {
    const missing = [];
    let existing = abs;
    while (!existsSync(existing)) {
      missing.unshift(existing);
      existing = dirname(existing);
    }
    if (!statSync(existing).isDirectory()) {
      throw Object.assign(new Error(`${existing} is not a directory`), { code: 'ENOTDIR' });
    }
    for (const d of missing) mkdirSync(d);
    const probe = join(abs, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (err) {
    throw usageError(`cannot write results to '${dir}': ${err.code || err.message}`,
      'choose a writable directory with --out');
  }
}

export function resultsFileName(results) {
  return `${results.startedAt.replace(/[:.]/g, '-')}.json`;
}

export function serialize(results) {
  return redact(JSON.stringify(results, null, 2)) + '\n';
}

export function writeResults(dir, results, file = join(dir, resultsFileName(results))) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, serialize(results));
  return resolve(file);
}

/** A run's finished results saved in --out (and --json's file). Returns the saved path. */
export function saveResults(results, { out, json }) {
  const file = writeResults(out, results);
  if (typeof json === 'string' && json !== '-') writeResults(out, results, json);
  return file;
}

const SCHEMA_FILE = new URL('../../docs/results.schema.json', import.meta.url);
let validate = null;

/** Compiled once, when a file is first read; all errors collected, so the tool and version are judged first. */
export function resultsValidator() {
  if (!validate) {
    const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js');
    const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
    validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
  }
  return validate;
}

function describeError(err) {
  const missing = err.keyword === 'required' ? err.params.missingProperty : null;
  const path = missing ? `${err.instancePath}/${missing}` : err.instancePath;
  const allowed = err.keyword === 'const' ? `: ${JSON.stringify(err.params.allowedValue)}`
    : err.keyword === 'enum' ? `: ${err.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `${path || '(the top level)'} ${missing ? 'is missing' : `${err.message}${allowed}`}`;
}

/** One line, or null when valid: a file not ours, a version not read here, else the first offending field. */
export function resultsProblem(data, file = 'results') {
  const check = resultsValidator();
  if (check(data)) return null;
  const errors = check.errors;
  const at = (name) => (e) => e.instancePath === `/${name}` || (e.instancePath === '' && e.params?.missingProperty === name);
  const notOurs = errors.find((e) => e.instancePath === '' && e.keyword === 'type') ?? errors.find(at('tool'));
  if (notOurs) return `'${file}' is not a mysql-driver-bench results file: ${describeError(notOurs)}`;
  if (errors.some(at('schema')) && data.schema !== undefined) {
    const readable = check.schema.properties.schema.enum;
    return `'${file}' has results schema ${JSON.stringify(data.schema)}; this version reads schemas ${readable.slice(0, -1).join(', ')} and ${readable.at(-1)}`;
  }
  return `'${file}' is not a valid results file (docs/results.schema.json): ${describeError(errors[0])}`;
}

/** Parsed and validated, older counted rows and Δs read as today's; anything else a one-line usage error. */
export function readResults(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw usageError(`cannot read results file '${file}': ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  const problem = resultsProblem(data, file);
  if (problem) throw usageError(problem);
  return readCountDeltas(readCountRows(data));
}

/** A driver as the results record it: a variant's options and any fairness rule it overrides included. */
function describeDriver(d) {
  const extra = d.extraOptions && Object.keys(d.extraOptions).length ? d.extraOptions : null;
  return {
    name: d.name, package: d.packageName, version: d.version, via: d.via, source: d.source,
    options: extra ? { ...d.options, ...extra } : d.options,
    ...(extra ? { variant: extra } : {}),
    ...(d.local ? { local: true } : {}),
    ...(d.git ? { git: d.git } : {}),
    ...(d.overrides?.length ? { overridesFairness: d.overrides } : {}),
    ...(d.runtime ? { runtime: describeRuntime(d.runtime) } : {}),
  };
}
