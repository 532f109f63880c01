// Pure: what a window allocated and its read and write system calls, from readings around it
// (driver/allocation-meter.js, replay/window-meter.js), and a row's figures per operation.
import { round1, round3, sum } from '../../common/stats.js';

// Which of V8's spaces a figure counts. `heap` (timed runs, where V8 may pretenure into the old space):
// all but code. `program` (counts, pretenuring off): young and large objects only, as the old space's
// growth is V8's own work (docs/history/2026-11-28-allocations.md#the-program-and-v8s-own-work).
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);
const YOUNG_AND_LARGE = new Set(['new_space', 'new_large_object_space', 'large_object_space']);
// The change of a timed row's bytes allocated per operation below which compare calls none: about five
// times the spread of an A/A pair (docs/history/2026-11-28-allocations.md#end-to-end-an-aa-pair).
export const ALLOCATION_FLOOR_PCT = 1;

export const COUNTED_SPACES = Object.freeze({
  heap: (name) => !CODE_SPACES.has(name),
  program: (name) => YOUNG_AND_LARGE.has(name),
});

/** Bytes used in the `counted` spaces, from getHeapSpaceStatistics() (snake_case) or GCProfiler's (camelCase). */
export const objectBytes = (spaces, counted = COUNTED_SPACES.heap) => spaces.reduce((n, s) => (counted(s.space_name ?? s.spaceName) ? n + (s.space_used_size ?? s.spaceUsedSize) : n), 0);

/** What each collection in between freed was allocated too. */
export function allocatedBetween(before, after, collections, counted = COUNTED_SPACES.heap) {
  const freed = collections.reduce((n, c) => n + objectBytes(c.beforeGC.heapSpaceStatistics, counted) - objectBytes(c.afterGC.heapSpaceStatistics, counted), 0);
  return after - before + freed;
}

/** The profile's collections inside a span, by the GC observer's counts; null when the two saw different collections. */
export function collectionsWithin(statistics, { before, within }) {
  if (before + within > statistics.length) return null;
  return statistics.slice(before, before + within);
}

// From /proc/<pid>/io: rchar and wchar count bytes through any file or socket, before any cache.
export const IO_FIELDS = Object.freeze(['syscw', 'syscr', 'wchar', 'rchar']);

export function ioCalls(text) {
  const found = IO_FIELDS.map((f) => new RegExp(`^${f}:\\s*(\\d+)$`, 'm').exec(text));
  return found.every(Boolean) ? Object.fromEntries(IO_FIELDS.map((f, i) => [f, Number(found[i][1])])) : null;
}

/** A row's figures per operation, total over total; each null when a window lacks it, all null when none has any. */
export function allocationPerOp(windows) {
  const ops = sum(windows.map((w) => w.ops ?? 0));
  const perOp = (key, round) => (ops > 0 && windows.every((w) => Number.isFinite(w[key])) ? round(sum(windows.map((w) => w[key])) / ops) : null);
  const figures = {
    bytesPerOp: perOp('allocatedBytes', round1),
    writesPerOp: perOp('syscw', round3),
    readsPerOp: perOp('syscr', round3),
    sentBytesPerOp: perOp('wchar', round1),
    receivedBytesPerOp: perOp('rchar', round1),
  };
  return Object.values(figures).every((v) => v === null) ? null : figures;
}
