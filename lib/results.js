// The results file: a versioned JSON object, never carrying a password.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { cpus, platform, release, arch, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { usageError } from './errors.js';
import { redact } from './redact.js';
import { deltaPct, significantDifference, noiseFloorPct, runResolution } from './stats.js';

export const SCHEMA_VERSION = 1;

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

/** Fill each row's deltaPct against the baseline driver's row of the same bench. */
export function applyDeltas(results) {
  const baseline = results.settings.baseline;
  for (const bench of results.benches) {
    const base = bench.results.find((r) => r.driver === baseline && r.ok);
    const floor = bench.results.find((r) => r.driver === 'floor' && r.ok);
    for (const row of bench.results) {
      // Each driver's extra time per operation over the reference client's, in %.
      row.overFloorPct = floor && row.ok && row !== floor ? (floor.opsPerSec / row.opsPerSec - 1) * 100 : null;
      row.deltaPct = row.ok && base ? deltaPct(row.opsPerSec, base.opsPerSec) : null;
      if (row.deltaPct === null || row === base) {
        row.deltaP = null;
        row.deltaSignificant = null;
        continue;
      }
      const { p, significant } = significantDifference(row.sampleOpsPerSec ?? [], base.sampleOpsPerSec ?? [], undefined,
        { deltaPct: row.deltaPct, noisePct: noiseFloorPct(row, base) });
      row.deltaP = Number.isFinite(p) ? Number(p.toPrecision(3)) : null;
      row.deltaSignificant = significant;
    }
  }
  results.resolution = runResolution(results.benches.flatMap((b) => b.results));
  return results;
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
  if (data.schema !== SCHEMA_VERSION) {
    throw usageError(`'${file}' has results schema ${data.schema}; this version reads schema ${SCHEMA_VERSION}`);
  }
  return data;
}
