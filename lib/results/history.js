// A release history (pure): when a run's rows are releases of one package in order (or a range was given),
// each bench's figure per release, and its *steps*: consecutive releases whose figures differ by more than
// the noise (a count: its noise floor; a timed run: their paired Δs' intervals do not overlap).
import { countFloorPct } from './counts.js';
import { SEMVER as EXACT, compareVersions as byVersion } from '../common/semver.js';

/** A row that is a plain release (`mysql2@3.9.0`: no variant, runtime, tag, checkout or commit). */
const isReleaseRow = (d) => typeof d.version === 'string' && EXACT.test(d.version) && d.name === `${d.package}@${d.version}` && !d.git && !d.local;

/**
 * The release rows the history follows, or null: the given ranges' releases or commits (with `labels` and
 * `subjects`), else every row but the floor, when all are releases of one package in ascending order.
 */
export function historyRows(results, { minRows = 3 } = {}) {
  const drivers = (results.drivers ?? []).filter((d) => d.name !== 'floor');
  const ranges = results.settings?.releaseRanges ?? [];
  const commitRange = ranges.find((r) => Array.isArray(r.commits));
  if (commitRange) {
    const byCommit = new Map(drivers.filter((d) => d.git?.commit).map((d) => [d.git.commit, d]));
    const taken = commitRange.commits.map((c, i) => ({ d: byCommit.get(c), subject: commitRange.subjects?.[i] ?? '' })).filter((t) => t.d);
    if (taken.length < 2) return null;
    return { package: taken[0].d.package, drivers: taken.map((t) => t.d), labels: taken.map((t) => t.d.git.commit.slice(0, 7)), subjects: taken.map((t) => t.subject) };
  }
  if (ranges.length) {
    const wanted = new Set(ranges.flatMap((r) => r.releases.map((v) => `${r.spec.split('@')[0]}@${v}`)));
    const rows = drivers.filter((d) => wanted.has(d.name) && isReleaseRow(d));
    const pkg = rows[0]?.package;
    const same = rows.filter((d) => d.package === pkg).sort((a, b) => byVersion(a.version, b.version));
    return same.length >= 2 ? { package: pkg, drivers: same } : null;
  }
  if (drivers.length < minRows || !drivers.every(isReleaseRow)) return null;
  if (new Set(drivers.map((d) => d.package)).size !== 1) return null;
  if (!drivers.every((d, i) => i === 0 || byVersion(drivers[i - 1].version, d.version) < 0)) return null;
  return { package: drivers[0].package, drivers };
}

const ratioPct = (from, to) => (from > 0 && to > 0 ? (to / from - 1) * 100 : null);

/** A timed row's paired Δ against the bench's reference, as an interval on the ops/s ratio ([0, 0] for the reference). */
function timedInterval(row, bench) {
  if (row.driver === bench.deltaReference) return [0, 0];
  return Array.isArray(row.deltaCI) ? row.deltaCI : null;
}

/** A count's change is its own (+ is more work); a timed one's the ops/s ratio from the paired Δs (+ is faster). */
export function releaseHistory(results, options) {
  const rows = historyRows(results, options);
  if (!rows) return null;
  const count = results.settings?.count ?? null;
  const benches = [];
  for (const bench of results.benches ?? []) {
    if (bench.rate) continue;
    const points = rows.drivers.map((d, i) => {
      const row = bench.results.find((r) => r.driver === d.name);
      const value = !row?.ok ? null : count ? (row.count?.perOp ?? null) : (row.opsPerSec ?? null);
      return { release: rows.labels?.[i] ?? d.version, driver: d.name, value, interval: row?.ok && !count ? timedInterval(row, bench) : null, deltaPct: row?.deltaPct ?? null, status: row?.status ?? 'not run' };
    });
    const measured = points.filter((p) => p.value !== null);
    if (measured.length < 2) continue;
    const floorPct = count ? countFloorPct(count, bench.name) : null;
    const steps = [];
    let unjudged = 0;
    for (let i = 1; i < measured.length; i++) {
      const [a, b] = [measured[i - 1], measured[i]];
      // Timed: the change from the paired Δs (each against the same reference), which the rounds paired.
      const changePct = count ? ratioPct(a.value, b.value)
        : Number.isFinite(a.deltaPct) && Number.isFinite(b.deltaPct) ? ((1 + b.deltaPct / 100) / (1 + a.deltaPct / 100) - 1) * 100 : ratioPct(a.value, b.value);
      let moved;
      if (count) moved = Math.abs(changePct) > floorPct;
      else if (!a.interval || !b.interval) { unjudged++; moved = false; } else moved = a.interval[1] < b.interval[0] || b.interval[1] < a.interval[0];
      if (moved) {
        const functions = results.stepFunctions?.[bench.name]?.[`${a.release}→${b.release}`] ?? null;
        steps.push({ from: a.release, to: b.release, fromValue: a.value, toValue: b.value, changePct, better: count ? changePct < 0 : changePct > 0, functions });
      }
    }
    const [first, last] = [measured[0], measured.at(-1)];
    const total = { from: first.release, to: last.release, changePct: count ? ratioPct(first.value, last.value)
      : Number.isFinite(first.deltaPct) && Number.isFinite(last.deltaPct) ? ((1 + last.deltaPct / 100) / (1 + first.deltaPct / 100) - 1) * 100 : ratioPct(first.value, last.value) };
    benches.push({ bench: bench.name, item: rows.labels ? 'commit' : 'release', counted: Boolean(count), floorPct, points, steps, unjudged, total });
  }
  const commits = rows.labels ? Object.fromEntries(rows.labels.map((label, i) => [label, { commit: rows.drivers[i].git.commit, subject: rows.subjects[i] }])) : null;
  return { package: rows.package, ranges: (results.settings?.releaseRanges ?? []).map((r) => r.spec), releases: rows.labels ?? rows.drivers.map((d) => d.version), commits, benches };
}
