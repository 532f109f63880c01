// --replay: the rows' windows, fixed in operations, sized side by side after the warm-ups and again
// from the rounds, so that the rows of a bench run windows of one length in time.
import { median } from '../../common/stats.js';
import { unlessAborted } from '../../common/timers.js';
import { fixedWindowSizing } from '../figures/window-sizing.js';
import { shuffle } from './schedule.js';

// A process's first two windows run slow while V8 compiles the window's own path: two more after
// them size a row (docs/measuring-history.md#2026-11-26-later-morning-windows-sized-side-by-side-warm-ups-by-reply-bytes-issue-33).
const SETTLED_AFTER_WINDOWS = 2;
const SIZING_WINDOWS = 2;

/**
 * The rows' windows sized side by side: every process of every row runs windows of its warm-up's
 * size, the rows in a fresh random order each time, not kept; each row is then sized from the median
 * time per operation of its own, taken on the same stretch of the host's drift as the others'. Sets
 * `fixedWindow` on the rows it sized.
 */
export async function sizeWindowsSideBySide(cells, { settings, windowTimeoutMs, signal, fail }) {
  const rows = cells.filter((c) => !c.row && !c.host && c.fixedWindow);
  if (rows.length === 0) return;
  const { time, lead } = settings;
  const msPerOp = new Map(rows.map((c) => [c, []]));
  const left = new Map(rows.flatMap((c) => Array.from({ length: c.copies }, (_, copy) => {
    const handle = c.handles[copy * c.workers];
    return [handle, Math.max(0, SETTLED_AFTER_WINDOWS - handle.windowsRun) + SIZING_WINDOWS];
  })));
  while (rows.some((c) => !c.row && c.handles.some((h) => left.get(h) > 0))) {
    for (let copy = 0; copy < Math.max(...rows.map((c) => c.copies)); copy++) {
      for (const cell of shuffle(rows)) {
        const handle = cell.handles[copy * cell.workers];
        if (cell.row || copy >= cell.copies || !(left.get(handle) > 0)) continue;
        signal?.throwIfAborted();
        try {
          const w = await unlessAborted(handle.turn('window', { lead, time, fixed: cell.fixedWindow }, windowTimeoutMs), signal);
          left.set(handle, left.get(handle) - 1);
          if (left.get(handle) < SIZING_WINDOWS && w.opsPerSec > 0) msPerOp.get(cell).push(1000 / w.opsPerSec);
        } catch (err) {
          left.set(handle, 0);
          await fail(cell, err);
        }
      }
    }
  }
  for (const cell of rows) {
    if (!cell.row && msPerOp.get(cell).length) cell.fixedWindow = fixedWindowSizing(median(msPerOp.get(cell)), { time, lead });
  }
}

// V8 still compiles the drivers' functions anew in a bench's first rounds: the rows are sized again
// from rounds past them (docs/measuring-history.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
const RESIZE_FROM_ROUND = 8;
const RESIZE_AT_ROUND = 24;

/** At round RESIZE_AT_ROUND, sizes each fixed-window row's windows again from its rounds since RESIZE_FROM_ROUND (sets `fixedWindow`). */
export function resizeIfDue(r, cells, { time, lead }) {
  if (r !== RESIZE_AT_ROUND) return;
  const settled = RESIZE_FROM_ROUND;
  for (const cell of cells.filter((c) => !c.row && !c.host && c.fixedWindow)) {
    const msPerOp = cell.windows.filter((w) => w.round >= settled && w.opsPerSec > 0).map((w) => 1000 / w.opsPerSec);
    if (msPerOp.length) cell.fixedWindow = fixedWindowSizing(median(msPerOp), { time, lead });
  }
}
