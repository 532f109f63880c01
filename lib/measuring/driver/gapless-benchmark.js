// benchmark.js's Benchmark, set up for the sampler's windows: no idle turn between cycles, and a
// test compiled once instead of for every window.
import { createRequire } from 'node:module';
import Benchmark from 'benchmark';

// benchmark.js waits on setTimeout(0) between samples, in which the CPU idles, and the next sample
// starts on a cold CPU (docs/history/2026-11-24-how-a-bench-is-measured.md#figures-the-codes-comments-held). Its own lodash (the one it was installed with), given a
// setTimeout that continues on the next turn of the event loop instead, removes that gap.
const lodash = createRequire(createRequire(import.meta.url).resolve('benchmark'))('lodash');
const nextTurn = (fn, ms) => (ms > 0 ? setTimeout(fn, ms) : setImmediate(fn));
const cancelTurn = (id) => { clearTimeout(id); clearImmediate(id); };
const timers = { setTimeout: nextTurn, clearTimeout: cancelTurn };

// benchmark.js compiles its test anew for every run, from lodash templates, each compiled through
// the Function constructor as well, for every window
// (docs/history/2026-11-24-how-a-bench-is-measured.md#benchmarkjs-overheads). The templates and the test are the same in every window but for a serial number
// in their variable names (a run's uid, 12 digits and more), so each is compiled once and kept, by
// its text with that number taken out. A kept function works for any serial: its variable names are
// its own.
const SERIAL = /\d{12,}/g;
const keyOf = (texts) => texts.join('\u0000').replace(SERIAL, '#');

/** Pure: a compile function (Function, lodash's template) that keeps what it compiled by keyOf(its arguments). */
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
