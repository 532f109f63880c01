// --count allocations: bytes allocated per operation in V8's young generation and large objects,
// measured natively around each replayed window (replay/window-meter.js), socket writes and bytes beside
// it. No Valgrind: under replay the work repeats exactly, so the figure does too.
import { COUNT_MALLOC_TUNABLES, COUNT_V8_FLAGS } from '../valgrind.js';
import { sizeCount } from './instructions.js';

// A Δ below this is not called; the figure repeats exactly from process to process under replay.
const NOISE_FLOOR_PCT = 0.1;

// Benches whose bytes move more than that between two codes that differ off the bench's path
// (docs/history/2026-11-29-gate-between-commits.md#the-history-replayed).
const BENCH_FLOORS_PCT = Object.freeze({ batch: 0.4 });

const METER = "V8's heap space statistics and GCProfiler around each window, the young generation and large objects (V8's old and code spaces left out), the meter's own readings subtracted";

export function allocationWindow(w) {
  return { figure: w.bytes, jit: 0, events: { writes: w.writes, bytesSent: w.bytesSent, bytesReceived: w.bytesReceived, collections: w.collections } };
}

export default Object.freeze({
  name: 'allocations',
  unit: 'bytes/op',
  shortUnit: 'B/op',
  noun: 'bytes allocated',
  counts: 'allocation counts',
  perOp: 'bytes allocated per operation',
  title: 'Bytes allocated per operation on the V8 heap (replayed)',
  heading: 'BYTES ALLOCATED (replay, V8 heap)',
  help: "counts the bytes each row allocates per operation on V8's heap, and its socket writes, natively under replay (no Valgrind; the same figure run to run)",
  tool: null,
  toolArgs: Object.freeze([]),
  outputArgs: () => [],
  v8Flags: COUNT_V8_FLAGS,
  mallocTunables: COUNT_MALLOC_TUNABLES,
  noiseFloorPct: NOISE_FLOOR_PCT,
  benchFloorsPct: BENCH_FLOORS_PCT,
  columns: Object.freeze([
    { head: 'writes/op', of: (count) => count.events?.writes },
    { head: 'sent B/op', of: (count) => count.events?.bytesSent },
    { head: 'received B/op', of: (count) => count.events?.bytesReceived },
  ]),
  size: sizeCount,
  readWindow: allocationWindow,
  record: () => ({ node: process.version, meter: METER, v8Flags: [...COUNT_V8_FLAGS], mallocTunables: COUNT_MALLOC_TUNABLES }),
  counting: (count) => `each bench × driver in one process on Node ${count.node}, warmed up, then three windows measured by ${count.meter}`,
  countedWith: (count) => `measured on Node ${count.node} with V8's determinism flags (${count.v8Flags.join(' ')}), one process per row`,
  method: (count) => `${count.meter}, after a warm-up, three windows of N operations each`,
});
