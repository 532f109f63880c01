// Pure: a driver's public record, one compact file per driver: every release counted on the design
// benches (instructions and bytes allocated per operation, from one captured set per server version),
// and its steps, each with the functions that moved across it. `record` adds the releases it lacks from
// a count run's results; the steps are always recomputed from the releases, so they follow the floors.
import { countFloorPct } from './counts.js';
import { compareVersions } from '../common/semver.js';

export const RECORD_FORMAT = 'mysql-driver-bench/record';
// What the record of all three drivers may weigh on disk, in bytes (a test holds it to this).
export const RECORD_CEILING_BYTES = 5 * 1024 * 1024;
// The counters a record keeps, by the key a release holds them under.
export const RECORD_COUNTERS = { instructions: 'instructions', bytes: 'allocations' };

/** A new, empty record of `driver`. */
export const emptyRecord = (driver) => ({ format: RECORD_FORMAT, driver, counted: {}, floors: {}, releases: [], functions: {}, commits: {} });

/** Pure: a step's key in the record's functions and commits: `instructions:execute:3.23.0→3.23.1`. */
export const stepKey = (key, bench, from, to) => `${key}:${bench}:${from}→${to}`;

/** Pure: the versions a record holds (counted or failed), semver-ordered. */
export const recordedVersions = (record) => record.releases.map((r) => r.version).sort(compareVersions);

/**
 * Pure: the releases of `published` (semver-ordered) from `from` up to `to` that the record lacks, and
 * the one it holds just before the first of them (counted again with them, so that the step into the
 * first new release comes from one run): { missing, before }.
 */
export function missingReleases(record, published, { from, to = null, limit = Infinity }) {
  const held = new Set(recordedVersions(record));
  const wanted = published.filter((v) => compareVersions(v, from) >= 0 && (!to || compareVersions(v, to) <= 0));
  const missing = wanted.filter((v) => !held.has(v)).slice(0, limit);
  const before = missing.length ? wanted.filter((v) => held.has(v) && compareVersions(v, missing[0]) < 0).at(-1) ?? null : null;
  return { missing, before };
}

/** Pure: a count run's figures per release: { [version]: { [bench]: perOp | null }, status: { [version]: { [bench]: reason } } }. */
function figuresOf(results) {
  const out = {};
  for (const bench of results.benches ?? []) {
    for (const row of bench.results) {
      const driver = results.drivers.find((d) => d.name === row.driver);
      if (!driver?.version) continue;
      const at = (out[driver.version] ??= { perOp: {}, failed: {} });
      if (row.ok && row.count?.perOp > 0) at.perOp[bench.name] = Math.round(row.count.perOp);
      else at.failed[bench.name] = row.error ?? row.status ?? 'failed';
    }
  }
  return out;
}

/**
 * Pure: the record with a count run's releases added or replaced under `key` (instructions or bytes):
 * each release's figure per bench, the floors and what the count was made with (`counted[key]`: the
 * server's version, Node's, the harness's), and the run's step functions (results.stepFunctions).
 */
export function mergeCount(record, key, results) {
  const figures = figuresOf(results);
  const releases = new Map(record.releases.map((r) => [r.version, { ...r }]));
  for (const [version, { perOp, failed }] of Object.entries(figures)) {
    const release = releases.get(version) ?? { version };
    release[key] = perOp;
    if (Object.keys(failed).length) release.failed = { ...release.failed, [key]: failed };
    else if (release.failed) {
      const { [key]: _, ...rest } = release.failed;
      if (Object.keys(rest).length) release.failed = rest; else delete release.failed;
    }
    releases.set(version, release);
  }
  const count = results.settings?.count ?? {};
  const floors = Object.fromEntries((results.benches ?? []).map((b) => [b.name, countFloorPct(count, b.name)]));
  const functions = { ...record.functions };
  for (const [bench, steps] of Object.entries(results.stepFunctions ?? {})) {
    for (const [step, list] of Object.entries(steps)) functions[stepKey(key, bench, ...step.split('→'))] = list;
  }
  return {
    ...record,
    counted: { ...record.counted, [key]: { server: results.server?.version ?? null, node: results.env?.node ?? null, harness: results.env?.harness ?? null } },
    floors: { ...record.floors, [key]: { ...record.floors[key], ...floors } },
    releases: [...releases.values()].sort((a, b) => compareVersions(a.version, b.version)),
    functions,
  };
}

/**
 * Pure: the record's steps: for each counter and bench, consecutive counted releases whose figures
 * differ by more than the bench's floor, oldest first: [{ key, bench, from, to, fromValue, toValue,
 * changePct, functions, commit }] (functions: the run's, where one run held both releases; commit: the
 * commit a bisection between the two release tags named, { commit, subject } or { why }; else null).
 */
export function recordSteps(record) {
  const steps = [];
  for (const key of Object.keys(RECORD_COUNTERS)) {
    const benches = [...new Set(record.releases.flatMap((r) => Object.keys(r[key] ?? {})))];
    for (const bench of benches) {
      const points = record.releases.filter((r) => r[key]?.[bench] > 0);
      const floor = record.floors[key]?.[bench] ?? 0;
      for (let i = 1; i < points.length; i++) {
        const [a, b] = [points[i - 1], points[i]];
        const changePct = (b[key][bench] / a[key][bench] - 1) * 100;
        if (Math.abs(changePct) <= floor) continue;
        const id = stepKey(key, bench, a.version, b.version);
        steps.push({ key, bench, from: a.version, to: b.version, fromValue: a[key][bench], toValue: b[key][bench], changePct, functions: record.functions[id] ?? null, commit: record.commits?.[id] ?? null });
      }
    }
  }
  return steps;
}

/** Pure: a record as its file holds it: one line per release and per step's functions or commit, so that a new release is a few lines' diff. */
export function serializeRecord(record) {
  const { releases, functions, commits = {}, ...head } = record;
  const lines = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const object = (o) => `{\n${Object.entries(o).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }`;
  lines.push(`  "releases": [\n${releases.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`, `  "functions": ${object(functions)}`, `  "commits": ${object(commits)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** Pure: the record with a step's commit set (a bisection's answer: { commit, subject } or { why }). */
export const withCommit = (record, id, answer) => ({ ...record, commits: { ...record.commits, [id]: answer } });
