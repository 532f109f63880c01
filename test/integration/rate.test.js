// --rate end to end against the embedded server: the closed-loop pass, then each rate on an open
// schedule, every result checked; what the results and the reports say; bad input in one line.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedDirs, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { decodeHistogram } from '../../lib/measuring/figures/histograms.js';

after(removeIsolatedDirs);

/** A --smoke run of `args` on the embedded server, its results file read back: { r, results, dirs, file }. */
async function smokeRun(args) {
  const dirs = isolatedDirs();
  const file = join(dirs.base, 'run.json');
  const r = await runCli([...args, '--smoke', '--out', dirs.out, '--json', file], { tmp: dirs.tmp, timeoutMs: 180000 });
  assert.equal(r.code, 0, r.stderr);
  return { r, results: JSON.parse(readFileSync(file, 'utf8')), dirs, file };
}

test('pool_select at 50 % and 120 % of the closed-loop maximum: rates asked of the slowest row, latencies from intended starts, lag and counts per row', async () => {
  const { r, results, dirs, file } = await smokeRun(['pool_select', '--rate', '50%,120%', '--latency-limit', '5', '--drivers', 'mysql2,mariadb', '--concurrency', '2']);
  const html = join(dirs.base, 'rate.html');
  assert.deepEqual(results.settings.rate, { rates: [{ pctOfMax: 50 }, { pctOfMax: 120 }], schedule: 'poisson', latencyLimitMs: 5, seed: 1 });
  const [closed, half, over] = results.benches;
  assert.equal(closed.rate, undefined, 'the closed-loop pass first');
  const slowest = Math.min(...closed.results.map((row) => row.opsPerSec));
  assert.equal(half.rate.closedLoopMax, Math.round(slowest));
  assert.equal(half.rate.askedPerSec, Math.round(slowest * 0.5));
  assert.equal(over.rate.askedPerSec, Math.round(slowest * 1.2));
  for (const entry of [half, over]) {
    for (const row of entry.results) {
      assert.ok(row.ok, `${row.driver}: ${row.error}`);
      const { rate } = row;
      assert.ok(rate.scheduled > 0 && rate.completed > 0, JSON.stringify(rate));
      assert.ok(rate.completed + rate.skipped <= rate.scheduled, JSON.stringify(rate));
      assert.equal(decodeHistogram(row.latency.histogram).totalCount, rate.completed, 'every completed operation timed from its intended start');
      assert.equal(row.lag.count, rate.completed, 'a lag per started operation (each started one completed)');
      assert.ok(row.latency.p50 >= row.lag.p50, 'latency from the intended start includes the lag');
      assert.ok(row.rounds.every((w) => w.p50Us > 0), 'each window its own p50, which the Δ pairs');
      if (row.driver === 'mariadb') assert.ok(Number.isFinite(row.deltaPct), 'Δ p50 against mysql2 at the same rate');
    }
  }
  assert.match(r.stdout, /^rate · pool_select @2 · latency against throughput$/m);
  assert.match(r.stdout, /\(50 % of [\d,]+\)/);
  assert.match(r.stdout, /latency from each operation's intended start/);
  const report = await runCli(['report', file, '--html', html]);
  assert.equal(report.code, 0, report.stderr);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /pool_select @2: latency against throughput/);
  assert.match(page, /<polyline[^>]+stroke-dasharray/, 'p99 lines in the chart');
  const compared = await runCli(['compare', file, file]);
  assert.equal(compared.code, 2, 'compare judges closed-loop runs only');
  assert.match(compared.stderr, /measured at a fixed rate \(--rate\): compare judges closed-loop runs/);
});

test('transfer at a fixed rate: the money check after every window still holds', async () => {
  const { results } = await smokeRun(['transfer', '--rate', '150', '--schedule', 'uniform', '--drivers', 'mysql2', '--concurrency', '2']);
  assert.equal(results.benches.length, 1, 'no closed-loop pass without a share of the maximum');
  const [row] = results.benches[0].results;
  assert.ok(row.ok, row.error);
  assert.equal(results.benches[0].rate.askedPerSec, 150);
  assert.ok(row.rate.completed > 0 && row.workload, JSON.stringify(row.rate));
});

test('--rate bad input: one line each, exit 2, nothing started', async () => {
  const cases = [
    [['pool_select', '--rate', '0'], /--rate must be operations per second above 0/],
    [['pool_select', '--rate', '-5%'], /--rate must be/],
    [['do', '--rate', '100'], /--rate needs benches whose operations can start on a schedule: do cannot/],
    [['pool_select', '--schedule', 'uniform'], /--schedule is for --rate runs/],
    [['pool_select', '--rate', '100', '--replay'], /--rate .* cannot take --replay/],
    [['pool_select', '--rate', '100', '--latency-limit', '0'], /--latency-limit must be milliseconds above 0/],
  ];
  for (const [args, message] of cases) {
    const dirs = isolatedDirs();
    const r = await runCli([...args, '--out', dirs.out], { tmp: dirs.tmp });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(noStackTrace(r.stderr));
  }
});

test('--workers 2: each window runs in two processes at once, each with its share of the rate; counts summed, histograms merged', async () => {
  const { r, results } = await smokeRun(['pool_select', '--workers', '2', '--rate', '400', '--drivers', 'mysql2', '--concurrency', '2']);
  assert.equal(results.settings.workers, 2);
  const [row] = results.benches[0].results;
  assert.ok(row.ok, row.error);
  assert.equal(row.workers, 2);
  assert.equal(row.connections, 4, 'two workers of two connections');
  assert.ok(row.rate.completed > 0);
  assert.equal(decodeHistogram(row.latency.histogram).totalCount, row.rate.completed, "both workers' latencies in the row's histogram");
  assert.equal(row.lag.count, row.rate.completed);
  assert.match(r.stdout, /each window in 2 worker processes at once/);
});
