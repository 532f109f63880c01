// Pure: the scaling tables of a run with --concurrency 1,4,16 (measuring/run/scaling.js runs the levels):
// each driver's ops/s and p99 latency per level.
import Table from 'cli-table3';
import { fmtOps, fmtUs } from '../common/format-numbers.js';

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
