// What --count can count: one entry per counter, which the count (replay/count.js), the settings, the
// reports and `compare` read, so a new counter is a file and a line below. An entry:
//   name        what --count takes, and rows' count.what ('instructions')
//   unit, shortUnit, noun, counts, perOp, title, heading, help   its words in tables, prose and --help
//   tool, toolArgs, outputArgs(dir)   the Valgrind tool (null: native, window-meter.js), its arguments, its output in dir
//   v8Flags, mallocTunables           the counted process's V8 flags and GLIBC_TUNABLES
//   noiseFloorPct, benchFloorsPct     the run-to-run spread a Δ must exceed, and benches' own (wider) ones, in %
//   size(recording)          { warmup, ops }: the operations before the windows and in each, from a replay set
//   readWindow(text)         a window's { figure, jit, events? } from its dump (or the worker's window): jit left out
//   columns                  optional: figures of its own beside the unit in the tables, [{ head, of(row's count) }] (allocations: writes/op)
//   warmWindows              optional: windows run instrumented before the counted ones, not read (cycles: 1, to fill its caches)
//   fixedLayout              optional: run the counted processes with address-space randomization off (setarch -R, where it runs; cycles)
//   timeoutS                 optional: the most seconds a count process may take (default 600; cycles 1800)
//   profileFlags(rec)        optional: V8 flags added when the row's profile is kept (replay/profiles.js), from settings.count (rec)
//   record()                 the tool's part of settings.count (its version, arguments, flags): what makes counts comparable
//   counting(count), countedWith(count), method(count)   the run's log line, the table's settings line, how a figure was taken
//   cacheConfig              optional: the simulated cache (a value, or a function of none), kept in settings.count.platform (cycles: { I1, D1, LL })
import { usageError } from '../../common/errors.js';
import { hostPlatform } from '../platform.js';
import { COUNT_THREAD_POOL, countModuleLoading } from '../valgrind.js';
import { sandboxRecord } from '../count-sandbox.js';
import instructions from './instructions.js';
import cycles from './cycles.js';
import allocations from './allocations.js';

const FIELDS = ['name', 'unit', 'shortUnit', 'noun', 'counts', 'perOp', 'title', 'heading', 'help', 'tool', 'toolArgs', 'outputArgs', 'v8Flags',
  'mallocTunables', 'noiseFloorPct', 'benchFloorsPct', 'size', 'readWindow', 'record', 'counting', 'countedWith', 'method'];

const counters = new Map([instructions, cycles, allocations].map((c) => [c.name, c]));

export const counterNames = () => [...counters.keys()];

/** The counter named `name`, or a usage error (exit 2) in one line that lists the known ones. */
export function counterNamed(name) {
  const counter = counters.get(name);
  if (!counter) throw usageError(`--count ${name}: no such counter; the counters are ${counterNames().join(', ')}`);
  return counter;
}

export const counterOf = (count) => counterNamed(count?.what);

/** Adds a counter (a test's, or a new one's first trial); returns what removes it. */
export function registerCounter(entry) {
  const missing = FIELDS.filter((f) => entry[f] === undefined);
  if (missing.length) throw new Error(`counter ${entry.name ?? '(no name)'} lacks ${missing.join(', ')}`);
  if (counters.has(entry.name)) throw new Error(`a counter named ${entry.name} is registered already`);
  counters.set(entry.name, entry);
  return () => counters.delete(entry.name);
}

// How a row is counted (count.js): the design a figure belongs to, which compare requires to match.
export const COUNT_PROCESS = 'one process per row, a worker thread per bench after a primer of all; compile work left out';

/** A count run's settings.count: what, how (valgrind.js), on what platform (replay/platform.js), and its noise floors. */
export const countSettings = (counter, { platform, collectedStart = false, ...options } = {}) => ({
  what: counter.name, ...counter.record(options), ...(collectedStart ? { collectedStart: true } : {}), threadPool: COUNT_THREAD_POOL, moduleLoading: countModuleLoading(), process: COUNT_PROCESS, sandbox: sandboxRecord(),
  platform: platform ?? hostPlatform(counter),
  noiseFloorPct: counter.noiseFloorPct, benchFloorsPct: { ...counter.benchFloorsPct },
});
