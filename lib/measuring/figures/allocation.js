// Pure: what a window allocated on V8's heap and how many read and write system calls it made, from
// readings taken around it (driver/allocation-meter.js in a timed run, replay/window-meter.js in a
// count), and a row's figures per operation from its windows.
import { round1, round3, sum } from '../../common/stats.js';

// Spaces whose growth is compiled code and its metadata, as the instruction count leaves out compiles.
const CODE_SPACES = new Set(['code_space', 'code_large_object_space']);

/**
 * The bytes used in the spaces that hold the program's objects, from getHeapSpaceStatistics()
 * (snake_case) or a GCProfiler statistic's heapSpaceStatistics (camelCase).
 */
export const objectBytes = (spaces) => spaces.reduce((n, s) => (CODE_SPACES.has(s.space_name ?? s.spaceName) ? n : n + (s.space_used_size ?? s.spaceUsedSize)), 0);

/**
 * The bytes allocated between two readings of the heap, from the bytes in use before and after
 * and the collections in between (GCProfiler's statistics): what each collection freed was allocated too.
 */
export function allocatedBetween(before, after, collections) {
  const freed = collections.reduce((n, c) => n + objectBytes(c.beforeGC.heapSpaceStatistics) - objectBytes(c.afterGC.heapSpaceStatistics), 0);
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

/** The read and write system calls so far, from the text of /proc/<pid>/io; null for any other text. */
export function ioCalls(text) {
  const syscr = /^syscr:\s*(\d+)$/m.exec(text);
  const syscw = /^syscw:\s*(\d+)$/m.exec(text);
  return syscr && syscw ? { syscr: Number(syscr[1]), syscw: Number(syscw[1]) } : null;
}

/**
 * A row's figures per operation, total over total operations of its windows ({ ops, allocatedBytes,
 * syscw, syscr }): bytes allocated, writes and reads; each null when a window lacks it, and the
 * whole null when no window has any.
 */
export function allocationPerOp(windows) {
  const ops = sum(windows.map((w) => w.ops ?? 0));
  const perOp = (key, round) => (ops > 0 && windows.every((w) => Number.isFinite(w[key])) ? round(sum(windows.map((w) => w[key])) / ops) : null);
  const figures = { bytesPerOp: perOp('allocatedBytes', round1), writesPerOp: perOp('syscw', round3), readsPerOp: perOp('syscr', round3) };
  return Object.values(figures).every((v) => v === null) ? null : figures;
}
