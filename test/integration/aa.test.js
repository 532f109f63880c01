// The A/A self-test: which drivers it runs, how it sums up what it found, and one real sitting.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aaRun, summarizeAA, renderAA, aaVariant, significantNote } from '../../lib/cli/commands/aa.js';
import { EXIT } from '../../lib/common/errors.js';
import { isolatedDirs, removeIsolatedDirs, runCli, noStackTrace } from '../helpers/cli.js';

after(removeIsolatedDirs);

const row = (driver, opsPerSec, extra = {}) => ({ driver, protocol: 'text', ok: true, status: 'ok', error: null, opsPerSec, ...extra });

function aaResults(deltas) {
  return {
    complete: true,
    settings: { baseline: 'mysql2', rounds: 36 },
    env: {}, server: {}, drivers: [],
    resolution: { pct: 2.5, rows: deltas.length, largestPct: 3.1, comparisons: deltas.length, jointLevel: 0.95, eachLevel: 1 - 0.05 / deltas.length },
    benches: deltas.map(([name, deltaPct, deltaSignificant]) => ({
      name,
      results: [
        row('mysql2', 1000),
        row('mysql2#aa', 1000 * (1 + deltaPct / 100), { deltaPct, deltaCI: [deltaPct - 2, deltaPct + 2], deltaPairs: 36, deltaSignificant }),
      ],
    })),
  };
}

test('aa runs one driver against a second process of itself, on the seven design benches by default', () => {
  const run = aaRun([], { baseline: 'mysql2' });
  assert.deepEqual(run.benches.map((b) => b.name), ['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute']);
  assert.deepEqual(run.opts.drivers, ['mysql2', 'mysql2#aa']);
  assert.equal(run.opts.baseline, 'mysql2');
  assert.deepEqual(aaRun(['do'], { baseline: 'mariadb' }).opts.drivers, ['mariadb', 'mariadb#aa']);
});

test('the A/A summary gives the median and largest |Δ| and the benches wrongly called significant', () => {
  const s = summarizeAA(aaResults([['do', -1, false], ['insert', 3, false], ['batch', -4.5, true]]));
  assert.equal(s.benches, 3);
  assert.equal(s.medianAbsDeltaPct, 3);
  assert.deepEqual(s.largest, { bench: 'batch', deltaPct: -4.5 });
  assert.deepEqual(s.significant, ['batch']);
  assert.equal(aaVariant().exitCode(aaResults([['batch', -4.5, true]]), EXIT.OK), EXIT.ROWS_FAILED);
  assert.equal(aaVariant().exitCode(aaResults([['do', -1, false]]), EXIT.OK), EXIT.OK);
});

test('the A/A summary names the largest |Δ| when every |Δ| is under 1 % (a good sitting keeps its summary line)', () => {
  const results = aaResults([['do', 0.8, false], ['insert', -0.06, false], ['batch', 0.14, false]]);
  assert.deepEqual(summarizeAA(results).largest, { bench: 'do', deltaPct: 0.8 });
  assert.match(renderAA(results), /A\/A \|Δ\|: median 0\.1 %, largest 0\.8 % \(do\); none called significant/);
});

test('the A/A report states the resolution, and a bench the driver cannot run is n/a with what to do', () => {
  const results = aaResults([['do', -1, false]]);
  const na = { ok: false, status: 'n/a', protocol: 'n/a', error: 'not supported by driver: no prepared statements in this driver' };
  results.settings.baseline = 'mysql';
  results.benches = [{ name: 'execute', results: [{ driver: 'mysql', ...na }, { driver: 'mysql#aa', ...na }] }];
  const text = renderAA(results);
  assert.match(text, /execute\s+│ mysql\s+│\s+n\/a │\s+n\/a/);
  assert.match(text, /execute: name a driver that runs it with --baseline/);
  assert.doesNotMatch(text, /FAILED/);
  const ok = renderAA(aaResults([['do', -1, false], ['insert', 2, false]]));
  assert.match(ok, /this machine resolves differences above 2\.5 % \(A\/A, 2 benches; the median half-width of the paired Δs' intervals, 95 % together over the run's 2 Δs: each at 97\.5 %; widest ±3\.1 %\)/);
  assert.match(ok, /95 % joint interval/);
  assert.match(ok, /A\/A \|Δ\|: median 1\.5 %, largest 2\.0 % \(insert\); none called significant/);
});

test('an interval bound that is not 0 never reads 0.0 %: a significant interval must look like one', () => {
  const results = aaResults([['do', -4.6, true]]);
  results.benches[0].results[1].deltaCI = [-7.4, -0.04];
  assert.match(renderAA(results), /-7\.4 % … -0\.04 %/);
});

test('a bench called significant gets the two processes\' client CPU per operation, and whether it explains the Δ', () => {
  const a = { cost: { clientCpuUsPerOp: 222.2 } };
  assert.equal(significantNote('execute', a, { deltaPct: 2.8, cost: { clientCpuUsPerOp: 210.7 } }),
    'execute: the twin spent 211 against 222 µs of client CPU per operation (-5.2 %), in line with its +2.8 %: '
    + 'the processes themselves differ, not their measurement; a new sitting draws new processes');
  assert.match(significantNote('execute', a, { deltaPct: 2.8, cost: { clientCpuUsPerOp: 221.5 } }), /\(-0\.3 %\): not the processes' own work; chance, or the host$/);
  assert.match(significantNote('execute', a, { deltaPct: -2.8, cost: { clientCpuUsPerOp: 210.7 } }), /not the processes' own work/, 'cheaper but slower: not its work');
  assert.equal(significantNote('do', {}, { deltaPct: -2.5 }), null, 'no cost figures, no note');
  const results = aaResults([['do', -1, false], ['execute', 2.8, true]]);
  results.benches[1].results[0].cost = a.cost;
  results.benches[1].results[1].cost = { clientCpuUsPerOp: 210.7 };
  const text = renderAA(results);
  assert.match(text, /execute: the twin spent 211 against 222 µs/);
  assert.match(text, /called significant: execute — the run's 2 intervals all hold in 19 sittings of 20: one sitting in 20 calls a bench by chance, and two processes of one driver can differ by a few per cent \(the notes above give their client CPU\); run `aa execute` again/);
});

test('aa on a real server: a table of A/A Δs, the resolution line, an exit code scripts can trust', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['aa', 'do', '--time', '0.3', '--rounds', '6', '--out', out], { tmp });
  assert.ok(r.code === EXIT.OK || r.code === EXIT.ROWS_FAILED, `exit ${r.code}: ${r.stderr}`);
  assert.ok(noStackTrace(r.stderr), r.stderr);
  assert.match(r.stdout, /mysql2#aa 3\.\d+\.\d+/, 'the twin is named in the header');
  assert.match(r.stdout, /this machine resolves differences above \d/);
  const saved = r.stderr.match(/results saved to (.+\.json)/)[1];
  const results = JSON.parse(readFileSync(saved.startsWith('/') ? saved : join(process.cwd(), saved), 'utf8'));
  const twin = results.benches[0].results.find((x) => x.driver === 'mysql2#aa');
  assert.ok(Number.isFinite(twin.deltaPct) && twin.deltaPairs === 6, JSON.stringify(twin));
  // The exit code follows what the run called significant, nothing else.
  assert.equal(r.code === EXIT.ROWS_FAILED, twin.deltaSignificant === true);
});

test('two processes doing different work per operation are named as a state of one process', async () => {
  const { processStateNote } = await import('../../lib/cli/commands/aa.js');
  const a = { cost: { clientCpuUsPerOp: 937.3 } };
  assert.match(processStateNote('select_1000_rows', a, { cost: { clientCpuUsPerOp: 629.5 } }),
    /select_1000_rows: the two processes spent 937 and 630 µs of client CPU per operation \(-33 %\): one process is in a state of its own/);
  // Rows of four processes each: the rows' processes, some of them in a state of their own.
  assert.match(processStateNote('batch', { processes: 4, cost: { clientCpuUsPerOp: 138 } }, { processes: 4, cost: { clientCpuUsPerOp: 167 } }),
    /^batch: the two rows' processes \(4 a row\) spent 138 and 167 µs of client CPU per operation \(\+21 %\): some of them are in a state of their own \(JIT, heap\)/);
  assert.equal(processStateNote('do', { cost: { clientCpuUsPerOp: 20 } }, { cost: { clientCpuUsPerOp: 21 } }), null);
  assert.equal(processStateNote('do', {}, { cost: { clientCpuUsPerOp: 21 } }), null, 'no cost figures, no note');
});
