// The results file: a versioned JSON object, never carrying a password.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { cpus, platform, release, arch, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../cli/errors.js';
import { redact } from '../cli/redact.js';
import { applyDeltas } from './deltas.js';

// 2: one process per driver, interleaved windows, paired Δ with its interval (deltaCI), cost per
// operation, placement. `compare` still reads 1.
export const SCHEMA_VERSION = 2;
export const READABLE_SCHEMAS = [1, 2];

export function describeEnvironment() {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: platform(),
    release: release(),
    arch: arch(),
    cpuModel: cpuList[0]?.model?.trim() ?? 'unknown',
    cpus: cpuList.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

export function createResults({ startedAt = new Date(), env, server, drivers, settings }) {
  return {
    schema: SCHEMA_VERSION,
    tool: 'mysql-driver-bench',
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

/** A run's results object before its first bench: this machine, the server, the drivers and the settings. */
export function startResults({ server, drivers, settings }) {
  return createResults({
    env: describeEnvironment(),
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

/** The run's end: its finishing time and paired Δs, then the file in --out (and --json's file). Returns the saved path. */
export function saveResults(results, { out, json }) {
  results.finishedAt = new Date().toISOString();
  applyDeltas(results);
  const file = writeResults(out, results);
  if (typeof json === 'string' && json !== '-') writeResults(out, results, json);
  return file;
}

export function readResults(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw usageError(`cannot read results file '${file}': ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  if (data?.tool !== 'mysql-driver-bench' || !Array.isArray(data.benches)) {
    throw usageError(`'${file}' is not a mysql-driver-bench results file`);
  }
  if (!READABLE_SCHEMAS.includes(data.schema)) {
    throw usageError(`'${file}' has results schema ${data.schema}; this version reads schemas ${READABLE_SCHEMAS.join(' and ')}`);
  }
  return data;
}

/** A driver as the results record it: a variant's options and any fairness rule it overrides included. */
function describeDriver(d) {
  const extra = d.extraOptions && Object.keys(d.extraOptions).length ? d.extraOptions : null;
  return {
    name: d.name, package: d.packageName, version: d.version, via: d.via, source: d.source,
    options: extra ? { ...d.options, ...extra } : d.options,
    ...(extra ? { variant: extra } : {}),
    ...(d.local ? { local: true } : {}),
    ...(d.overrides?.length ? { overridesFairness: d.overrides } : {}),
  };
}
