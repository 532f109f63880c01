// A release history's steps, confirmed: a count process once settled in a state of its own, a false
// step (docs/history/2026-11-27-bisect.md#one-thread-in-libuvs-pool), so a step's sides are counted again
// in new processes, and a third decides (the median) when the two disagree.
import { inParallel } from '../common/parallel.js';

/** Pure: the indexes of the rows on either side of a step (consecutive counted rows beyond `floorPct`). */
export function stepRows(rows, floorPct) {
  const marked = new Set();
  let previous = null;
  rows.forEach((row, i) => {
    const value = row?.ok ? row.count?.perOp : null;
    if (!(value > 0)) return;
    if (previous && Math.abs((value / previous.value - 1) * 100) > floorPct) marked.add(previous.i).add(i);
    previous = { i, value };
  });
  return [...marked].sort((a, b) => a - b);
}

const rowName = (cell, i) => cell.entry.results[i]?.driver ?? `row ${i + 1}`;

export const agree = (a, b, floorPct) => Math.abs((b / a - 1) * 100) <= floorPct;

export function medianRow(rows) {
  return [...rows].sort((a, b) => a.count.perOp - b.count.perOp)[1];
}

/** In place; `recountRow(i, benches)` resolves to a Map of bench name → row. A confirmed row keeps its first count. */
export async function confirmSteps(entries, { floorOf, recountRow, parallel = 1, signal, log = () => {} }) {
  const cells = entries.flatMap(({ bench, entry }) => stepRows(entry.results, floorOf(bench)).map((i) => ({ bench, entry, i })));
  if (!cells.length) return 0;
  const byRow = new Map();
  for (const c of cells) byRow.set(c.i, [...(byRow.get(c.i) ?? []), c]);
  const rows = [...byRow].map(([i, list]) => ({ i, cells: list }));
  log(`confirming the steps: ${cells.length} count(s) of ${rows.length} row(s) made again, each row's in a new process`);
  let done = 0;
  await inParallel(rows, parallel, async ({ i, cells: mine }) => {
    const started = Date.now();
    const second = await recountRow(i, mine.map((c) => c.bench));
    const apart = [];
    for (const c of mine) {
      const [first, again] = [c.entry.results[i], second.get(c.bench.name)];
      if (!again?.ok) continue;
      if (agree(first.count.perOp, again.count.perOp, floorOf(c.bench))) first.count.processes = [first.count.perOp, again.count.perOp];
      else apart.push({ c, first, again });
    }
    if (apart.length) {
      const third = await recountRow(i, apart.map((x) => x.c.bench));
      for (const { c, first, again } of apart) {
        const last = third.get(c.bench.name);
        if (!last?.ok) continue;
        const chosen = medianRow([first, again, last]);
        chosen.count.processes = [first, again, last].map((r) => r.count.perOp);
        c.entry.results[i] = chosen;
      }
    }
    done++;
    const names = mine.map((c) => c.bench.name).join(', ');
    log(`  confirmed ${rowName(mine[0], i)}: ${names}${apart.length ? ` (${apart.map((x) => x.c.bench.name).join(', ')} apart: a third count decided)` : ''} (${Math.round((Date.now() - started) / 1000)} s) [${done}/${rows.length}]`);
  }, { signal });
  return cells.length;
}
