// --replay: the rows' windows, fixed in operations, sized side by side after the warm-ups and again
// from the rounds, so that the rows of a bench run windows of one length in time. The policy and its
// formula are figures/window-sizing.js's (REPLAY_SIZING); this runs the windows it asks for.
import { unlessAborted } from '../../common/timers.js';
import { REPLAY_SIZING, fixedFromMsPerOp, sizesRow, sizingWindowsLeft } from '../figures/window-sizing.js';
import { shuffle } from './schedule.js';

/**
 * Unkept windows, the rows in a fresh random order each time, so that each row's median time per
 * operation is taken on the same stretch of the host's drift as the others'. Sets `fixedWindow`.
 */
export async function sizeWindowsSideBySide(cells, { windowS, lead, windowTimeoutMs, signal, fail }) {
  const rows = cells.filter((c) => !c.row && !c.owner && c.fixedWindow);
  if (rows.length === 0) return;
  const msPerOp = new Map(rows.map((c) => [c, []]));
  const left = new Map(rows.flatMap((c) => Array.from({ length: c.copies }, (_, groupIndex) => {
    const handle = c.handles[groupIndex * c.workers];
    return [handle, sizingWindowsLeft(handle.windowsRun)];
  })));
  while (rows.some((c) => !c.row && c.handles.some((h) => left.get(h) > 0))) {
    for (let groupIndex = 0; groupIndex < Math.max(...rows.map((c) => c.copies)); groupIndex++) {
      for (const cell of shuffle(rows)) {
        const handle = cell.handles[groupIndex * cell.workers];
        if (cell.row || groupIndex >= cell.copies || !(left.get(handle) > 0)) continue;
        signal?.throwIfAborted();
        try {
          const w = await unlessAborted(handle.turn('window', { lead, windowS, fixed: cell.fixedWindow }, windowTimeoutMs), signal);
          left.set(handle, left.get(handle) - 1);
          if (sizesRow(left.get(handle)) && w.opsPerSec > 0) msPerOp.get(cell).push(1000 / w.opsPerSec);
        } catch (err) {
          left.set(handle, 0);
          await fail(cell, err);
        }
      }
    }
  }
  for (const cell of rows) {
    if (!cell.row && msPerOp.get(cell).length) cell.fixedWindow = fixedFromMsPerOp(msPerOp.get(cell), { windowS, lead });
  }
}

/** At round `resizeAtRound`, sizes each fixed-window row's windows again from its rounds since `resizeFromRound` (sets `fixedWindow`). */
export function resizeIfDue(r, cells, { windowS, lead }) {
  if (r !== REPLAY_SIZING.resizeAtRound) return;
  for (const cell of cells.filter((c) => !c.row && !c.owner && c.fixedWindow)) {
    const msPerOp = cell.windows.filter((w) => w.round >= REPLAY_SIZING.resizeFromRound && w.opsPerSec > 0).map((w) => 1000 / w.opsPerSec);
    if (msPerOp.length) cell.fixedWindow = fixedFromMsPerOp(msPerOp, { windowS, lead });
  }
}
