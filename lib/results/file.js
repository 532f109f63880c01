// The results file: a versioned JSON object, never carrying a password.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { cpus, platform, release, arch, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../cli/errors.js';
import { redact } from '../cli/redact.js';
import { pairedDelta, pairedResolution, pairedSignificant } from '../measuring/stats.js';

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

/**
 * The reference of a bench's Δ column: the baseline's row when it was measured there, else the
 * first driver in --drivers order that was. Returns { row, note } (row null when no row was measured).
 */
export function deltaReference(bench, baseline, driverOrder) {
  const measured = (name) => bench.results.find((r) => r.driver === name && r.ok);
  const base = measured(baseline);
  if (base) return { row: base, note: null };
  const row = driverOrder.map(measured).find(Boolean) ?? null;
  const baseRow = bench.results.find((r) => r.driver === baseline);
  const why = !baseRow ? `${baseline} did not run it`
    : baseRow.status === 'n/a' ? `${baseline}: ${String(baseRow.error).replace(/^not supported by driver: /, '')}` : `${baseline} failed`;
  if (!row) return { row: null, note: null };
  const others = bench.results.filter((r) => r.ok && r !== row).length;
  return { row, note: others ? `Δ against ${row.driver} (${why})` : `no Δ: only ${row.driver} was measured (${why})` };
}

/**
 * Fill each row's paired Δ against its bench's reference (the baseline, or the first driver that ran
 * the bench), the run's resolution, and each Δ's significance under the one rule (measuring/stats.js).
 */
export function applyDeltas(results) {
  const baseline = results.settings.baseline;
  const driverOrder = (results.drivers ?? []).map((d) => d.name);
  const paired = [];
  for (const bench of results.benches) {
    const { row: ref, note } = deltaReference(bench, baseline, driverOrder);
    bench.deltaReference = ref?.driver ?? null;
    bench.deltaNote = note;
    const floor = bench.results.find((r) => r.driver === 'floor' && r.ok);
    for (const row of bench.results) {
      // Each driver's extra time per operation over the reference client's, in %.
      row.overFloorPct = floor && row.ok && row !== floor ? (floor.opsPerSec / row.opsPerSec - 1) * 100 : null;
      row.deltaCI = null;
      row.deltaSignificant = null;
      if (!row.ok || !ref) {
        row.deltaPct = null;
        continue;
      }
      if (row === ref) {
        row.deltaPct = 0;
        continue;
      }
      const d = pairedDelta(row.rounds, ref.rounds);
      row.deltaPct = d ? d.deltaPct : null;
      row.deltaCI = d?.ci ?? null;
      row.deltaPairs = d?.pairs ?? 0;
      if (d) paired.push([row, d]);
    }
  }
  results.resolution = pairedResolution(paired.map(([, d]) => d));
  for (const [row, d] of paired) row.deltaSignificant = pairedSignificant(d, results.resolution?.pct);
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
  if (!READABLE_SCHEMAS.includes(data.schema)) {
    throw usageError(`'${file}' has results schema ${data.schema}; this version reads schemas ${READABLE_SCHEMAS.join(' and ')}`);
  }
  return data;
}
