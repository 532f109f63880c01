// benchmark.js's Benchmark, set up for the sampler's windows: no idle turn between cycles, and a
// test compiled once instead of for every window.
import { createRequire } from 'node:module';
import Benchmark from 'benchmark';

// benchmark.js's setTimeout(0) between samples idles the CPU; its own lodash, given a next-turn timer,
// removes that gap (docs/history/2026-11-24-how-a-bench-is-measured.md#figures-the-codes-comments-held).
const lodash = createRequire(createRequire(import.meta.url).resolve('benchmark'))('lodash');
const nextTurn = (fn, ms) => (ms > 0 ? setTimeout(fn, ms) : setImmediate(fn));
const cancelTurn = (id) => { clearTimeout(id); clearImmediate(id); };
const timers = { setTimeout: nextTurn, clearTimeout: cancelTurn };

// benchmark.js compiles its test anew for every window (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads);
// the texts differ only by a run's uid (12+ digits) in variable names, so each is compiled once, keyed without it.
const SERIAL = /\d{12,}/g;
const keyOf = (texts) => texts.join('\u0000').replace(SERIAL, '#');

export function compilingOnce(compile) {
  const kept = new Map();
  return (...args) => {
    const key = keyOf(args);
    let compiled = kept.get(key);
    if (!compiled) {
      compiled = compile(...args);
      kept.set(key, compiled);
    }
    return compiled;
  };
}

const lodashOnce = lodash.runInContext(timers);
lodashOnce.template = compilingOnce(lodashOnce.template);

export const GaplessBenchmark = Benchmark.runInContext({ _: lodashOnce, ...timers, Function: compilingOnce(Function) });
