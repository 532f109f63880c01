// Pure: what a window allocated on V8's heap and how many read and write system calls it made, from
// readings taken around it (driver/allocation-meter.js in a timed run, replay/window-meter.js in a
// count), and a row's figures per operation from its windows.
import { round1, round3, sum } from '../../common/stats.js';

// Which of V8's spaces a figure counts. `heap`, a timed run's: every space but the code spaces, as the
// instruction count leaves compiles out (V8 may pretenure a program's objects into the old space there).
// `program`, a count's, whose process runs with pretenuring off: the young generation and the large
// objects, where the program's objects are allocated; what grows the old space between collections is
// then V8's own work (bytecode, feedback, maps), which moved with a change of code that allocates
// nothing (docs/history/2026-11-28-allocations.md#the-program-and-v8s-own-work).
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);
const YOUNG_AND_LARGE = new Set(['new_space', 'new_large_object_space', 'large_object_space']);
// The change of a timed row's bytes allocated per operation below which compare calls none: about five
// times the spread of an A/A pair (docs/history/2026-11-28-allocations.md#end-to-end-an-aa-pair).
export const ALLOCATION_FLOOR_PCT = 1;

export const COUNTED_SPACES = Object.freeze({
  heap: (name) => !CODE_SPACES.has(name),
  program: (name) => YOUNG_AND_LARGE.has(name),
});

/**
 * The bytes used in the spaces `counted` names (COUNTED_SPACES), from getHeapSpaceStatistics()
 * (snake_case) or a GCProfiler statistic's heapSpaceStatistics (camelCase).
 */
export const objectBytes = (spaces, counted = COUNTED_SPACES.heap) => spaces.reduce((n, s) => (counted(s.space_name ?? s.spaceName) ? n + (s.space_used_size ?? s.spaceUsedSize) : n), 0);

/**
 * The bytes allocated between two readings of the heap, from the bytes in use before and after
 * and the collections in between (GCProfiler's statistics): what each collection freed was allocated too.
 */
export function allocatedBetween(before, after, collections, counted = COUNTED_SPACES.heap) {
  const freed = collections.reduce((n, c) => n + objectBytes(c.beforeGC.heapSpaceStatistics, counted) - objectBytes(c.afterGC.heapSpaceStatistics, counted), 0);
  return after - before + freed;
}

/**
 * The collections of a profile that fell inside a span: the profile's statistics are in order, and
 * `before` of them (by the GC observer's count) came before the span, `within` inside it. Null when the
 * profile holds fewer than that: the two did not see the same collections.
 */
export function collectionsWithin(statistics, { before, within }) {
  if (before + within > statistics.length) return null;
  return statistics.slice(before, before + within);
}

// What /proc/<pid>/io says of a process's I/O: its read and write system calls, and the bytes they
// moved (rchar, wchar: through any file or socket, before any cache).
export const IO_FIELDS = Object.freeze(['syscw', 'syscr', 'wchar', 'rchar']);

/** The read and write system calls so far and their bytes, from the text of /proc/<pid>/io; null for any other text. */
export function ioCalls(text) {
  const found = IO_FIELDS.map((f) => new RegExp(`^${f}:\\s*(\\d+)$`, 'm').exec(text));
  return found.every(Boolean) ? Object.fromEntries(IO_FIELDS.map((f, i) => [f, Number(found[i][1])])) : null;
}

/**
 * A row's figures per operation, total over total operations of its windows ({ ops, allocatedBytes,
 * syscw, syscr, wchar, rchar }): bytes allocated, writes and reads and the bytes they moved; each null
 * when a window lacks it, and the whole null when no window has any.
 */
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
