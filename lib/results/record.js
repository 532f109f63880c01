// Pure: a driver's public record, one compact file per driver: every release counted on the design
// benches (instructions and bytes allocated per operation) and its steps, each with the functions that
// moved across it. The steps are always recomputed from the releases, so they follow the floors.
import { countFloorPct } from './counts.js';
import { compareVersions } from '../common/semver.js';

export const RECORD_FORMAT = 'mysql-driver-bench/record';
// What the record of all three drivers may weigh on disk, in bytes (a test holds it to this).
export const RECORD_CEILING_BYTES = 5 * 1024 * 1024;
// The counters a record keeps, by the key a release holds them under.
export const RECORD_COUNTERS = { instructions: 'instructions', bytes: 'allocations' };

export const emptyRecord = (driver) => ({ format: RECORD_FORMAT, driver, counted: {}, floors: {}, releases: [], functions: {}, commits: {}, timed: {} });
// Steps of at least this size are confirmed by a timed replay of their two releases.
export const TIMED_STEP_PCT = 10;

/** Pure: a step's key in the record's functions and commits: `instructions:execute:3.23.0→3.23.1`. */
export const stepKey = (key, bench, from, to) => `${key}:${bench}:${from}→${to}`;

/** Pure: the key of a release pair's timed replay of one bench (both counters' steps share it): `execute:3.23.0→3.23.1`. */
export const timedKey = (bench, from, to) => `${bench}:${from}→${to}`;

export const recordedVersions = (record) => record.releases.map((r) => r.version).sort(compareVersions);

/** The releases it lacks, and `before` (held just before them, counted again so the first step comes from one run). */
export function missingReleases(record, published, { from, to = null, limit = Infinity }) {
  const held = new Set(recordedVersions(record));
  const wanted = published.filter((v) => compareVersions(v, from) >= 0 && (!to || compareVersions(v, to) <= 0));
  const missing = wanted.filter((v) => !held.has(v)).slice(0, limit);
  const before = missing.length ? wanted.filter((v) => held.has(v) && compareVersions(v, missing[0]) < 0).at(-1) ?? null : null;
  return { missing, before };
}

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

/** A count run's releases added or replaced under `key`, with its floors, `counted[key]` and step functions. */
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

/** Per counter and bench, consecutive counted releases whose figures differ by more than the bench's floor. */
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
        steps.push({
          key, bench, from: a.version, to: b.version, fromValue: a[key][bench], toValue: b[key][bench], changePct,
          functions: record.functions[id] ?? null, commit: record.commits?.[id] ?? null, timed: record.timed?.[timedKey(bench, a.version, b.version)] ?? null,
        });
      }
    }
  }
  return steps;
}

/** Pure: a record as its file holds it: one line per release and per step's functions or commit, so that a new release is a few lines' diff. */
export function serializeRecord(record) {
  const { releases, functions, commits = {}, timed = {}, ...head } = record;
  const lines = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const object = (o) => `{\n${Object.entries(o).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n  }`;
  lines.push(`  "releases": [\n${releases.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`, `  "functions": ${object(functions)}`, `  "commits": ${object(commits)}`, `  "timed": ${object(timed)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

export const withCommit = (record, id, answer) => ({ ...record, commits: { ...record.commits, [id]: answer } });

export const stepsToBisect = (record, minPct) => recordSteps(record).filter((s) => !s.commit && Math.abs(s.changePct) >= minPct)
  .sort((a, b) => Math.abs(b.changePct) - Math.abs(a.changePct));

/** Pure: the release pairs whose steps of TIMED_STEP_PCT or more lack a timed replay, with their benches. */
export function pairsToTime(record) {
  const pairs = new Map();
  for (const s of recordSteps(record).filter((x) => !x.timed && Math.abs(x.changePct) >= TIMED_STEP_PCT)) {
    const pair = pairs.get(`${s.from}→${s.to}`) ?? { from: s.from, to: s.to, benches: [] };
    if (!pair.benches.includes(s.bench)) pair.benches.push(s.bench);
    pairs.set(`${s.from}→${s.to}`, pair);
  }
  return [...pairs.values()];
}

/** Per bench, the later release's ops/s Δ and whether it agrees with the count's step; unmeasured: { why }. */
export function withTimed(record, { from, to, benches }, results) {
  const timed = { ...record.timed };
  const steps = recordSteps(record);
  for (const bench of benches) {
    const row = results.benches?.find((b) => b.name === bench)?.results.find((r) => r.driver === `${record.driver}@${to}`);
    const key = timedKey(bench, from, to);
    if (!row?.ok || !Number.isFinite(row.deltaPct)) { timed[key] = { why: row?.error ?? 'the timed replay did not measure it' }; continue; }
    // The direction to agree with: the instructions' step, or the bytes' where instructions did not step.
    const pair = steps.filter((s) => s.bench === bench && s.from === from && s.to === to);
    const step = pair.find((s) => s.key === 'instructions') ?? pair[0];
    const agrees = Boolean(step) && Math.sign(step.changePct) === -Math.sign(row.deltaPct);
    timed[key] = { opsPerSecPct: Math.round(row.deltaPct * 10) / 10, significant: Boolean(row.deltaSignificant), agrees };
  }
  return { ...record, timed };
}

export const LATEST_FORMAT = 'mysql-driver-bench/record-latest';

/** Pure: each record's newest counted release: { [driver]: version }. */
export const latestVersions = (records) => Object.fromEntries(records.map((r) => [r.driver, r.releases.filter((x) => x.instructions && Object.keys(x.instructions).length).at(-1)?.version]).filter(([, v]) => v));

/** A timed run of the drivers' newest releases side by side, as the page shows it. */
export function latestTimed(results, versions) {
  const benches = {};
  for (const bench of results.benches ?? []) {
    benches[bench.name] = Object.fromEntries(bench.results.map((r) => [r.driver.split('@')[0], r.ok
      ? { opsPerSec: Math.round(r.opsPerSec), deltaPct: Number.isFinite(r.deltaPct) ? Math.round(r.deltaPct * 10) / 10 : null, significant: r.deltaSignificant ?? null }
      : { why: r.status === 'n/a' ? 'n/a' : r.error ?? 'failed' }]));
  }
  return { format: LATEST_FORMAT, versions, baseline: results.settings?.baseline ?? null, at: results.finishedAt ?? null, env: { node: results.env?.node ?? null, server: results.server?.version ?? null, cpus: results.env?.cpus ?? null }, benches };
}

/** Two records of one driver built apart joined, `b`'s figures winning; counted on another server or Node: { error }. */
export function mergeRecords(a, b) {
  if (a.driver !== b.driver) return { error: `${a.driver}'s record and ${b.driver}'s cannot be joined` };
  for (const key of Object.keys(RECORD_COUNTERS)) {
    const [x, y] = [a.counted?.[key], b.counted?.[key]];
    if (x && y && (x.server !== y.server || x.node !== y.node)) return { error: `${key} counted on ${x.server}, Node ${x.node} and on ${y.server}, Node ${y.node}: not comparable` };
  }
  const releases = new Map(a.releases.map((r) => [r.version, r]));
  for (const r of b.releases) releases.set(r.version, { ...releases.get(r.version), ...r });
  const floors = Object.fromEntries(Object.keys(RECORD_COUNTERS).map((k) => [k, { ...a.floors?.[k], ...b.floors?.[k] }]).filter(([, v]) => Object.keys(v).length));
  return {
    record: {
      ...a, counted: { ...a.counted, ...b.counted }, floors,
      releases: [...releases.values()].sort((x, y) => compareVersions(x.version, y.version)),
      functions: { ...a.functions, ...b.functions }, commits: { ...a.commits, ...b.commits }, timed: { ...a.timed, ...b.timed },
    },
  };
}

/** Pure: the missing releases cut into at most `slices` runs, each from the release before it: each step in one run. */
export function releaseSlices({ missing, before }, slices) {
  if (!missing.length) return [];
  // Two releases at least: a slice of one would count again what the next slice starts from.
  const size = Math.max(2, Math.ceil(missing.length / Math.max(1, slices)));
  const out = [];
  for (let i = 0; i < missing.length; i += size) {
    const part = missing.slice(i, i + size);
    const from = i === 0 ? before ?? part[0] : missing[i - 1];
    out.push({ from, to: part.at(-1), releases: part.length + (from === part[0] ? 0 : 1) });
  }
  return out;
}
