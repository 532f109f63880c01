// `--concurrency 1,4,16`: the chosen benches are run once per level, and a scaling table shows each
// driver's ops/s and p99 latency per level. A single level is the plain run it always was.
import Table from 'cli-table3';
import { usageError } from '../cli/errors.js';
import { fmtOps, fmtUs } from '../reporting/format.js';

const MAX_LEVEL = 1024;

/**
 * commander parser for --concurrency: `4` -> 4; `1,4,16` -> [1, 4, 16] (in the order given,
 * duplicates refused). A list of one is a number.
 */
export function parseConcurrency(value) {
  const parts = String(value).split(',').map((s) => s.trim());
  const levels = parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n) || n < 1 || n > MAX_LEVEL) {
      throw usageError(`--concurrency must be a whole number of at least 1 (at most ${MAX_LEVEL}), or a list of them such as 1,4,16, not '${value}'`);
    }
    return n;
  });
  const dup = levels.find((n, i) => levels.indexOf(n) !== i);
  if (dup !== undefined) throw usageError(`--concurrency names level ${dup} twice: '${value}'`);
  return levels.length === 1 ? levels[0] : levels;
}

/** settings.concurrency (a number or a list) -> the list of levels. */
export const concurrencyLevels = (concurrency) => (Array.isArray(concurrency) ? concurrency : [concurrency ?? 1]);

/**
 * Run `runLevel(levelSettings)` once per level, the settings' concurrency replaced by the level;
 * the bench entries each level adds to `results.benches` are marked with `concurrency`.
 */
export async function forEachLevel(settings, results, runLevel) {
  for (const level of concurrencyLevels(settings.concurrency)) {
    const before = results.benches.length;
    try {
      await runLevel({ ...settings, concurrency: level });
    } finally {
      for (const entry of results.benches.slice(before)) entry.concurrency = level;
    }
  }
}

/** Per bench run at more than one level: { bench, levels, drivers: [{ driver, cells: [{ level, row }] }] }. */
export function scalingData(results) {
  const byBench = new Map();
  for (const entry of results.benches ?? []) {
    if (entry.concurrency === undefined) continue;
    if (!byBench.has(entry.name)) byBench.set(entry.name, []);
    byBench.get(entry.name).push(entry);
  }
  const out = [];
  for (const [bench, entries] of byBench) {
    const levels = [...new Set(entries.map((e) => e.concurrency))];
    if (levels.length < 2) continue;
    const driverNames = [];
    for (const e of entries) for (const r of e.results) if (!driverNames.includes(r.driver)) driverNames.push(r.driver);
    out.push({
      bench,
      levels,
      pool: entries.some((e) => e.results.some((r) => r.pool)),
      drivers: driverNames.map((driver) => ({
        driver,
        cells: levels.map((level) => ({ level, row: entries.find((e) => e.concurrency === level)?.results.find((r) => r.driver === driver) ?? null })),
      })),
    });
  }
  return out;
}

const cellOps = (row) => {
  if (!row) return '';
  if (row.ok) return fmtOps(row.opsPerSec);
  return row.status === 'n/a' ? 'n/a' : 'FAILED';
};

/** Pure: the scaling tables of a results object ('' when no bench ran at two levels or more). */
export function renderScaling(results) {
  const data = scalingData(results);
  if (data.length === 0) return '';
  const parts = [];
  for (const b of data) {
    const head = ['driver', ...b.levels.flatMap((l) => [`ops/s @${l}`, `p99 µs @${l}`]), `×ops ${b.levels[0]}→${b.levels.at(-1)}`];
    const table = new Table({ head, style: { head: [], border: [], compact: true }, colAligns: ['left', ...head.slice(1).map(() => 'right')] });
    for (const d of b.drivers) {
      const first = d.cells[0].row;
      const last = d.cells.at(-1).row;
      const factor = first?.ok && last?.ok ? `×${(last.opsPerSec / first.opsPerSec).toFixed(2)}` : '';
      table.push([d.driver, ...d.cells.flatMap(({ row }) => [cellOps(row), row?.ok ? fmtUs(row.latency?.p99) : '']), factor]);
    }
    const what = b.pool ? 'callers sharing one pool of that size' : 'connections, each with one call in flight';
    parts.push(`scaling · ${b.bench} · ops/s and p99 latency per level (level = ${what})\n${table.toString()}`);
  }
  return parts.join('\n') + '\n';
}
