// `merge` (pure): a run's shards (--shard i/n) joined into one results object, each cell from the shard
// that measured it with its Δ as that shard paired it; reference rows, probes and health from shard 1.
// Shards of different code, drivers, settings or server, or a set missing one, are refused in one line.
import { basename } from 'node:path';
import { usageError } from '../common/errors.js';

const OTHER_SHARD = /^measured by shard (\d+)\/(\d+)$/;

const codeOf = (r) => `mysql-driver-bench ${r.env?.harness?.version ?? '?'}${r.env?.harness?.commit ? ` at ${r.env.harness.commit.slice(0, 12)}` : ''}`;
const driverOf = (d) => `${d.name} ${d.version}${d.via ? ` via ${d.via}` : ''}${d.runtime && !d.runtime.harness ? ` on ${d.runtime.kind} ${d.runtime.version}` : ''}`;
const serverOf = (r) => `${r.server?.kind ?? '?'} ${r.server?.version ?? '?'}`;

function comparableSettings(settings) {
  // Each shard may have its own schema on a shared server, and its own CPUs; a shard after another on
  // one machine reuses the first's replay sets (50 captured against 0).
  const { shard, placement, schema, replay, ...rest } = settings ?? {};
  const { captured, reused, dir, ...sameReplay } = replay ?? {};
  return { ...rest, ...(replay ? { replay: sameReplay } : {}), shardCount: shard?.count };
}

/** The first key whose value differs between two plain objects, as `key: a ≠ b`; null when none. */
function firstDifference(a, b, prefix = '') {
  for (const key of [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort()) {
    const [x, y] = [a?.[key], b?.[key]];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x)) return firstDifference(x, y, `${prefix}${key}.`);
    return `${prefix}${key}: ${JSON.stringify(x)} ≠ ${JSON.stringify(y)}`;
  }
  return null;
}

function assertSameRun(shards) {
  const [first] = shards;
  const name = (s) => basename(s.file);
  for (const s of shards.slice(1)) {
    const differ = (what, a, b) => usageError(`the shards are not one run: ${name(first)} and ${name(s)} have different ${what} (${a} ≠ ${b})`, 'merge the shards of one run, taken with the same checkout, drivers, settings and server');
    if (codeOf(first.results) !== codeOf(s.results)) throw differ('code', codeOf(first.results), codeOf(s.results));
    const [da, db] = [first.results.drivers.map(driverOf).join(', '), s.results.drivers.map(driverOf).join(', ')];
    if (da !== db) throw differ('drivers', da, db);
    if (serverOf(first.results) !== serverOf(s.results)) throw differ('servers', serverOf(first.results), serverOf(s.results));
    const setting = firstDifference(comparableSettings(first.results.settings), comparableSettings(s.results.settings));
    if (setting) throw usageError(`the shards are not one run: ${name(first)} and ${name(s)} have different settings (${setting})`, 'merge the shards of one run, taken with the same checkout, drivers, settings and server');
  }
}

/** The shards in index order, all there once; else one line naming what is wrong. */
function orderedShards(list) {
  for (const s of list) {
    if (!s.results.settings?.shard) throw usageError(`${basename(s.file)} is not a shard's results (it was not run with --shard i/n)`, 'merge the files the shards of one run wrote');
  }
  const count = list[0].results.settings.shard.count;
  const byIndex = new Map();
  for (const s of list) {
    const { index, count: n } = s.results.settings.shard;
    if (n !== count) throw usageError(`the shards are not one run: ${basename(list[0].file)} is one of ${count} shards, ${basename(s.file)} one of ${n}`, 'merge the shards of one run');
    if (byIndex.has(index)) throw usageError(`shard ${index}/${count} is given twice (${basename(byIndex.get(index).file)} and ${basename(s.file)})`, 'give each shard once');
    byIndex.set(index, s);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) throw usageError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`, 'give merge every shard\'s results file');
  return Array.from({ length: count }, (_, i) => byIndex.get(i + 1));
}

// A --rate entry is its bench at one rate: a share of the maximum names it (each shard measures its own maximum).
const benchKey = (b) => `${b.name}\u0000${b.concurrency ?? ''}\u0000${b.rate ? (b.rate.pctOfMax !== undefined ? `${b.rate.pctOfMax}%` : b.rate.askedPerSec) : ''}`;

/** Each row gets `shard`, the shard that measured it; `shards` lists them with each one's machine and resolution. */
export function mergeShards(list) {
  if (list.length < 1) throw usageError('merge needs the results files of a run\'s shards', 'e.g. mysql-driver-bench merge shard-1.json shard-2.json --json all.json');
  const shards = orderedShards(list);
  assertSameRun(shards);
  const merged = structuredClone(shards[0].results);
  const benchesOf = shards.map((s) => new Map(s.results.benches.map((b) => [benchKey(b), b])));
  for (const bench of merged.benches) {
    // The bench's Δ notes as written by the shard that measured most of its rows.
    const fullest = benchesOf.map((m) => m.get(benchKey(bench))).filter(Boolean)
      .sort((a, b) => b.results.filter((r) => r.ok).length - a.results.filter((r) => r.ok).length)[0];
    for (const key of ['deltaReference', 'deltaNote']) {
      if (fullest?.[key] === undefined) delete bench[key];
      else bench[key] = fullest[key];
    }
    bench.results = bench.results.map((row) => {
      const other = row.status === 'n/a' ? OTHER_SHARD.exec(row.error ?? '') : null;
      if (!other) return { ...row, shard: 1 };
      const j = Number(other[1]);
      const measured = benchesOf[j - 1].get(benchKey(bench))?.results.find((r) => r.driver === row.driver);
      if (!measured) throw usageError(`shard ${j}/${shards.length} (${basename(shards[j - 1].file)}) has no row ${bench.name} · ${row.driver}`, 'was that shard interrupted? run it again');
      return { ...measured, shard: j };
    });
  }
  merged.complete = shards.every((s) => s.results.complete);
  merged.stoppedBy = shards.map((s) => s.results.stoppedBy).find(Boolean) ?? null;
  merged.startedAt = shards.map((s) => s.results.startedAt).sort()[0];
  merged.finishedAt = shards.map((s) => s.results.finishedAt).every(Boolean) ? shards.map((s) => s.results.finishedAt).sort().at(-1) : null;
  merged.settings.shard = { count: shards.length, merged: true };
  // Each Δ keeps its own shard's significance; the run's resolution is the coarsest shard's.
  const coarsest = shards.map((s) => s.results.resolution).filter(Boolean).sort((a, b) => b.pct - a.pct)[0];
  merged.resolution = coarsest ?? null;
  merged.shards = shards.map((s, i) => ({
    index: i + 1,
    file: basename(s.file),
    host: s.results.env?.host ?? null,
    startedAt: s.results.startedAt,
    resolutionPct: s.results.resolution?.pct ?? null,
    cells: merged.benches.flatMap((b) => b.results.filter((r) => r.shard === i + 1 && r.status !== 'n/a').map((r) => `${b.name} · ${r.driver}`)),
  }));
  return merged;
}

/** One line per shard: the machine it ran on and how many cells it measured (reference rows: shard 1's). */
export const describeShards = (merged) => (merged.shards ?? []).map((s) => `shard ${s.index}/${merged.shards.length} on ${s.host ?? 'an unnamed host'} (${s.file}${s.resolutionPct !== null ? `, resolution ${s.resolutionPct} %` : ''}): ${s.cells.length} cells`);
