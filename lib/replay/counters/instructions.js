// --count instructions: machine instructions per operation, counted by Valgrind's callgrind. The
// counter registry's first entry (index.js says what an entry holds).
import path from 'node:path';
import { callsInto, engineEntry, isFullCollection, rootedGroups } from '../callgrind.js';
import { COUNT_MALLOC_TUNABLES, VALGRIND_V8_FLAGS, MARKER, assertValgrind } from '../valgrind.js';

// callgrind, instrumentation off until the count process passes its warm-up, a dump at each window's marker.
const CALLGRIND_ARGS = Object.freeze(['--tool=callgrind', '--instr-atstart=no', `--dump-before=${MARKER}`]);

// A Δ within every design bench's run-to-run spread is not called (docs/history/2026-11-28-gate.md).
const NOISE_FLOOR_PCT = 0.1;

// Benches whose count moves more than that between two codes that differ off the bench's path: the
// largest such move on a driver's history, rounded up (docs/history/2026-11-29-gate-between-commits.md#the-history-replayed).
const BENCH_FLOORS_PCT = Object.freeze({ do: 0.5, insert: 0.6, pipelining: 0.6, select_100_cols: 0.5, execute: 0.5 });
// A window need only hold one operation's work many times over (compiles are left out); the warm-up
// runs uninstrumented, several times as fast as a counted window.
const WINDOW_INSTRUCTIONS = 16e6;
const WARMUP_INSTRUCTIONS = 0.5e9;
// At least this many operations before the windows: V8 compiles what an operation calls once with
// TurboFan after some hundreds of calls (mysql2's generated row parsers among them).
const MIN_WARMUP_OPS = 1024;
const MAX_WARMUP_OPS = 8192;
const MAX_OPS = 16384;

const powerOfTwo = (x, lo, hi) => Math.max(lo, Math.min(hi, 2 ** Math.round(Math.log2(x))));

/** Sized by what a replayed operation moves; the same on every run of a set: a count depends on where its windows lie. */
export function sizeCount(recording) {
  const loop = recording.steps.slice(recording.cycleFrom);
  const ops = Math.max(1, recording.cycleOps ?? recording.ops - 1);
  const per = (bytes) => loop.reduce((n, s) => n + bytes(s), 0) / ops;
  const estimate = 30000 * (loop.length / ops) + 30 * per((s) => s.sent ?? 0) + 100 * per((s) => s.reply.length);
  return { warmup: powerOfTwo(WARMUP_INSTRUCTIONS / estimate, MIN_WARMUP_OPS, MAX_WARMUP_OPS), ops: powerOfTwo(WINDOW_INSTRUCTIONS / estimate, 8, MAX_OPS) };
}

export function parseDumpTotal(text) {
  const m = /^summary:\s*(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

export function instructionWindow(text) {
  const events = rootedGroups(text, engineEntry, ['jit', 'gc']);
  if (!events) throw new Error('a callgrind dump had no summary line');
  const { jit, gc } = events.groups;
  return { figure: events.totals.Ir - jit.Ir - gc.Ir, jit: jit.Ir, gc: gc.Ir, fullCollections: callsInto(text, isFullCollection) };
}

// --jit-names (profiles.js): not by default, as the flag moves the count: runs with names compare only with
// each other. Builtins stay in the binary, where callgrind names them: a worker's copy is in no map.
export const PROFILE_FLAGS = Object.freeze(['--perf-basic-prof', '--no-short-builtin-calls']);
const profileFlags = (recorded) => (recorded?.profileFlags?.length ? [...recorded.profileFlags, '--no-logfile-per-isolate', '--logfile=v8.log'] : []);

export default Object.freeze({
  name: 'instructions',
  unit: 'instructions/op',
  shortUnit: 'instr/op',
  noun: 'instructions',
  counts: 'instruction counts',
  perOp: 'instructions per operation',
  title: 'Instructions per operation under Valgrind',
  heading: 'INSTRUCTIONS (replay under Valgrind)',
  help: "counts each row's instructions per operation under Valgrind (the same count run to run within 0.1 %, host to host within 0.3 %)",
  tool: 'callgrind',
  toolArgs: CALLGRIND_ARGS,
  outputArgs: (dir) => [`--callgrind-out-file=${path.join(dir, 'cg.out')}`],
  v8Flags: VALGRIND_V8_FLAGS,
  mallocTunables: COUNT_MALLOC_TUNABLES,
  noiseFloorPct: NOISE_FLOOR_PCT,
  benchFloorsPct: BENCH_FLOORS_PCT,
  size: sizeCount,
  readWindow: instructionWindow,
  profileFlags,
  record: ({ jitNames = false } = {}) => ({ valgrind: assertValgrind(process.env, 'instructions'), valgrindArgs: [...CALLGRIND_ARGS], v8Flags: [...VALGRIND_V8_FLAGS], mallocTunables: COUNT_MALLOC_TUNABLES,
    ...(jitNames ? { profileFlags: [...PROFILE_FLAGS] } : {}) }),
  counting: (count) => `each bench × driver in one process under ${count.valgrind} (callgrind), warmed up uninstrumented, then three windows counted, V8's compiles and collections left out`,
  countedWith: (count) => `counted under ${count.valgrind} with V8's flags for a count (${count.v8Flags.join(' ')}), one process per row`,
  method: (count) => `under ${count.valgrind}'s callgrind, after an uninstrumented warm-up, three windows of N operations each, V8's compiles and collections left out`,
});
