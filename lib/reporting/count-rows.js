// The figures of a --count instructions run, one row per bench × driver, shared by the terminal
// table, the Markdown summary and the HTML page (pure).
import { fmtDelta } from './format.js';
import { fmtOps } from '../common/format-numbers.js';

export const COUNT_HEAD = ['instructions/op', 'ops counted', 'window spread'];

/** A count row's cells under COUNT_HEAD, then its Δ: n/a or FAILED in the first cell of a row not counted. */
export function countCells(row, bench, baseline) {
  if (!row.ok) return [row.status === 'n/a' ? 'n/a' : 'FAILED', '', '', fmtDelta(row, bench, baseline, { digits: 2 })];
  const spread = row.instructions?.spreadPct;
  const mark = row.instructions?.unsteady ? ' unsteady' : row.instructions?.recountedFrom ? ' recounted' : '';
  return [fmtOps(row.instructionsPerOp), fmtOps(row.instructions.ops), Number.isFinite(spread) ? `${spread.toFixed(2)} %${mark}` : '',
    fmtDelta(row, bench, baseline, { digits: 2 })];
}

/** The line that says how the figures were taken and how to read them. */
export function describeCount(count) {
  return `instructions/op: under ${count.valgrind}'s callgrind, after an uninstrumented warm-up, three windows of N operations each; `
    + 'window spread: how far the windows differ (the GC work each happens to hold); '
    + `Δ: the reference's instructions/op ÷ the row's − 1 (+ is less work); ~ within the count's noise floor (±${count.noiseFloorPct} %`
    + `${Object.entries(count.benchFloorsPct ?? {}).map(([bench, pct]) => `; ${bench} ±${pct} %`).join('')}, its run-to-run spread here)`
    + '; recounted: a window held a one-off event over 1.5 × the others, and the row was counted again; unsteady: the recount had one too, and its Δ is not called';
}
