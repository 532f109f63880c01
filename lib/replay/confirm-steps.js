// A release history's steps, confirmed before they are reported: a count process once settled in a
// state of its own, which a history would call a step (docs/history/2026-11-27-bisect.md#one-thread-in-libuvs-pool),
// so a step's sides are counted again, each in a new process, and when the two disagree beyond the
// bench's floor a third decides (the median).
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

/** Pure: whether two counts of a row agree within `floorPct`. */
export const agree = (a, b, floorPct) => Math.abs((b / a - 1) * 100) <= floorPct;

/** Pure: of three counted rows, the one whose figure is the median. */
export function medianRow(rows) {
  return [...rows].sort((a, b) => a.count.perOp - b.count.perOp)[1];
}

/**
 * Confirm the steps of every entry ({ bench, entry: { results } }) in place: `recount(bench, i)` counts
 * row i of the bench again in a new process (resolving to a row). A confirmed row keeps its first count
 * and says so (count.processes: every process's figure); one whose second count disagrees is the median
 * of three (a recount keeps no profile). Returns how many rows were counted again.
 */
export async function confirmSteps(entries, { floorOf, recount, parallel = 1, signal, log = () => {} }) {
  const cells = entries.flatMap(({ bench, entry }) => stepRows(entry.results, floorOf(bench)).map((i) => ({ bench, entry, i })));
  if (!cells.length) return 0;
  log(`confirming the steps: ${cells.length} row(s) counted again, each in a new process`);
  await inParallel(cells, parallel, async ({ bench, entry, i }) => {
    const first = entry.results[i];
    const second = await recount(bench, i);
    if (!second?.ok) return;
    if (agree(first.count.perOp, second.count.perOp, floorOf(bench))) {
      first.count.processes = [first.count.perOp, second.count.perOp];
      return;
    }
    const third = await recount(bench, i);
    if (!third?.ok) return;
    const chosen = medianRow([first, second, third]);
    chosen.count.processes = [first, second, third].map((r) => r.count.perOp);
    entry.results[i] = chosen;
  }, { signal });
  return cells.length;
}
