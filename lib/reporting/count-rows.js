// The figures of a --count run, one row per bench × driver, shared by the terminal table, the
// Markdown summary and the HTML page (pure). What is counted, and its words, come from the run's
// counter (replay/counters/, named by settings.count.what); each row's figures from its `count`.
import { fmtDelta } from './format.js';
import { fmtOps } from '../common/format-numbers.js';
import { counterOf } from '../replay/counters/index.js';

// A counter's own figures beside its unit (its `columns`: { head, of(count) }), e.g. the writes per operation.
const columnsOf = (count) => counterOf(count).columns ?? [];

/** The columns of a count row's figures (countCells), for a run's settings.count. */
export const countHead = (count) => [counterOf(count).unit, ...columnsOf(count).map((c) => c.head), 'ops counted', 'window spread'];

/** A count row's cells under countHead (`count`: the run's settings.count), then its Δ: n/a or FAILED in the first cell of a row not counted. */
export function countCells(row, bench, baseline, count) {
  const columns = count ? columnsOf(count) : [];
  if (!row.ok) return [row.status === 'n/a' ? 'n/a' : 'FAILED', ...columns.map(() => ''), '', '', fmtDelta(row, bench, baseline, { digits: 2 })];
  const spread = row.count?.spreadPct;
  const mark = row.count?.unsteady ? ' unsteady' : row.count?.recountedFrom ? ' recounted' : '';
  const own = columns.map((c) => {
    const n = c.of(row.count);
    return Number.isFinite(n) ? fmtOps(n) : '';
  });
  return [fmtOps(row.count.perOp), ...own, fmtOps(row.count.ops), Number.isFinite(spread) ? `${spread.toFixed(2)} %${mark}` : '',
    fmtDelta(row, bench, baseline, { digits: 2 })];
}

/** The line that says how the figures were taken and how to read them. */
export function describeCount(count) {
  const counter = counterOf(count);
  return `${counter.unit}: ${counter.method(count)}; `
    + 'window spread: how far the windows differ (work done once, not every operation); '
    + `Δ: the row's ${counter.unit} ÷ the reference's − 1 (+ is more work); ~ within the count's noise floor (±${count.noiseFloorPct} %`
    + `${Object.entries(count.benchFloorsPct ?? {}).map(([bench, pct]) => `; ${bench} ±${pct} %`).join('')}, its run-to-run spread here)`
    + '; recounted: a window held a one-off event over 1.5 × the others, or a full collection of the heap, and the row was counted again; unsteady: the recount had one too, and its Δ is not called';
}
