// benchmark.js as the sampler runs it: its test compiled once, whatever the run's serial number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { GaplessBenchmark, compilingOnce } from '../../lib/measuring/driver/gapless-benchmark.js';

test('compilingOnce compiles each text once, the run serial in it taken out', () => {
  const compiled = [];
  const compile = (...args) => {
    compiled.push(args);
    return { args };
  };
  const once = compilingOnce(compile);
  const a = once('t176389123456701', 'return t176389123456701.x');
  const b = once('t176389123456702', 'return t176389123456702.x');
  const c = once('t176389123456703', 'return t176389123456703.y');
  const short = once('t1', 'return 1234');
  assert.equal(a, b, 'the same text but for its serial: the kept function');
  assert.notEqual(a, c, 'another text: compiled');
  assert.notEqual(once('t2', 'return 1234'), short, 'short numbers are part of the text');
  assert.equal(compiled.length, 4);
});

test('deferred benchmarks of one test share one compiled function, and each one times its own run', async () => {
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
  const runs = [];
  for (const ms of [2, 6]) {
    const bench = new GaplessBenchmark('w', {
      defer: true, async: true, delay: 0, initCount: 1, minTime: 0.001, maxTime: 0, minSamples: 1,
      fn(deferred) { busy(ms); deferred.resolve(); },
    });
    await new Promise((resolve, reject) => {
      bench.on('complete', resolve);
      bench.on('error', (e) => reject(e.target.error));
      bench.run();
    });
    assert.equal(bench.error, undefined);
    runs.push(bench);
  }
  assert.equal(runs[0].compiled, runs[1].compiled, 'compiled once');
  // Lower bounds only: a busy host makes a busy-wait longer, never shorter.
  const [short, long] = runs.map((b) => b.stats.mean);
  assert.ok(short >= 0.002 && long >= 0.006, `each benchmark timed its own test: means ${short} s and ${long} s`);
});
