// calibrate's report (pure): the paired harness/bare ratio per driver, judged on the figure it shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationRows, renderCalibration, MIN_RATIO } from '../../lib/cli/commands/calibrate.js';

const rounds = (opsPerSec, n = 9) => Array.from({ length: n }, (_, round) => ({ round, opsPerSec }));
const row = (driver, opsPerSec) => ({ driver, protocol: 'text', ok: true, status: 'ok', error: null, opsPerSec, rounds: rounds(opsPerSec) });

function results(harnessOps) {
  return {
    complete: true,
    settings: { baseline: 'mysql2', rounds: 9 },
    env: {}, server: {}, drivers: [],
    benches: [{ name: 'do', results: [row('mysql2', harnessOps), row('mysql2 (bare loop)', 10000)] }],
  };
}

test('a ratio is judged as it is shown: 0.9795 reads 0.980 and is not LOW, 0.9794 reads 0.979 and is', () => {
  const [justAbove] = calibrationRows(results(9795));
  assert.equal(justAbove.ratio, 0.98);
  assert.ok(justAbove.ratio >= MIN_RATIO);
  assert.match(renderCalibration(results(9795)), /│ do\s+│ mysql2\s+│[^\n]*0\.980 \(0\.980–0\.980\) │/);
  const [below] = calibrationRows(results(9794));
  assert.equal(below.ratio, 0.979);
  assert.match(renderCalibration(results(9794)), /0\.979 \(0\.979–0\.979\) LOW │/);
});
