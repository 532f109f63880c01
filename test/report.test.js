import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable } from '../lib/report.js';
import { describeNetwork } from '../lib/format.js';
import { applyDeltas, createResults, readResults, serialize } from '../lib/results.js';
import { addSecret } from '../lib/redact.js';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function fixture() {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: '10.11.0-MariaDB', kind: 'mariadb', embedded: true },
    drivers: [{ name: 'mysql', version: '2.18.1' }, { name: 'mysql2', version: '3.0.0' }, { name: 'mariadb', version: '3.5.0' }],
    settings: { baseline: 'mysql', concurrency: 1, time: 3 },
  });
  const ok = (driver, opsPerSec, protocol = 'text') => ({ driver, protocol, ok: true, status: 'ok', error: null, opsPerSec, rme: 0.8, samples: 60, latency: { p50: 80, p90: 90, p99: 150, max: 900 } });
  r.benches.push({ name: 'do', title: 'DO', sql: 'DO ?', results: [ok('mysql', 10000), ok('mysql2', 12000), ok('mariadb', 9000)] });
  r.benches.push({
    name: 'execute', title: 'exec', sql: 'SELECT', results: [
      { driver: 'mysql', protocol: 'n/a', ok: false, status: 'n/a', error: 'not supported by driver: no prepared statements' },
      ok('mysql2', 5000, 'binary'),
      { driver: 'mariadb', protocol: 'binary', ok: false, status: 'failed', error: 'column i3: expected 3, got 4' },
    ],
  });
  r.complete = true;
  return applyDeltas(r);
}

test('deltas are against the baseline of the same bench, null where it is missing', () => {
  const r = fixture();
  assert.equal(r.benches[0].results[0].deltaPct, 0);
  assert.equal(r.benches[0].results[1].deltaPct, 20);
  assert.equal(r.benches[0].results[2].deltaPct, -10);
  assert.equal(r.benches[1].results[1].deltaPct, null);
  assert.equal(r.benches[1].results[2].deltaPct, null);
});

test('the table shows each row, the baseline, n/a and failures with their reasons', () => {
  const text = renderTable(fixture());
  assert.match(text, /MariaDB 10\.11\.0-MariaDB \(embedded\)/);
  assert.match(text, /│ do\s+│ mysql\s+│ text\s+│\s+10,000 │\s+0\.8 % │\s+60 │\s+80\.0 │\s+150 │\s+baseline │/);
  assert.match(text, /│\s+│ mysql2\s+│ text\s+│\s+12,000 │.*\+20\.0 % │/);
  assert.match(text, /│\s+│ mariadb\s+│ text\s+│\s+9,000 │.*-10\.0 % │/);
  assert.match(text, /execute · mysql: n\/a: not supported by driver/);
  assert.match(text, /execute · mariadb: FAILED: column i3: expected 3, got 4/);
  assert.doesNotMatch(text, /INCOMPLETE/);
});

test('an incomplete run says what stopped it', () => {
  const r = fixture();
  r.complete = false;
  r.stoppedBy = 'interrupted by SIGINT';
  assert.match(renderTable(r), /INCOMPLETE: interrupted by SIGINT/);
});

test('serialised results never carry a registered secret', () => {
  const r = fixture();
  addSecret('s3cr3t-value-xyz');
  r.benches[1].results[2].error = "Access denied for user 'x' (using password: s3cr3t-value-xyz)";
  const text = serialize(r);
  assert.doesNotMatch(text, /s3cr3t-value-xyz/);
  assert.match(text, /using password: \*\*\*/);
});

test('readResults accepts a results file and rejects anything else with a clear message', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdb-test-'));
  const good = join(dir, 'good.json');
  writeFileSync(good, serialize(fixture()));
  assert.equal(readResults(good).benches.length, 2);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"hello": 1}');
  assert.throws(() => readResults(bad), /not a mysql-driver-bench results file/);
  assert.throws(() => readResults(join(dir, 'missing.json')), /no such file/);
  rmSync(dir, { recursive: true, force: true });
});

test('a run over several concurrency levels names the level of each bench and in the header', () => {
  const r = fixture();
  r.settings.concurrency = [1, 4];
  r.benches[0].concurrency = 1;
  r.benches[1].concurrency = 4;
  const text = renderTable(r);
  assert.match(text, /1, 4 connections \(one level after another\) per driver/);
  assert.match(text, /│ do @1 /);
  assert.match(text, /│ execute @4 /);
});

test('a run with rounds states its resolution: the median and largest round-to-round spread of its cells', () => {
  const r = fixture();
  assert.equal(r.resolution, null, 'single-round rows: nothing to say');
  assert.doesNotMatch(renderTable(r), /resolution:/);
  const spreads = [4, 10, 30];
  r.benches[0].results.forEach((row, i) => Object.assign(row, { spreadPct: spreads[i], rounds: [{}, {}] }));
  applyDeltas(r);
  assert.deepEqual(r.resolution, { cells: 3, medianSpreadPct: 10, maxSpreadPct: 30, medianRmePct: 0.8 });
  assert.match(renderTable(r), /resolution: the same cell moved by a median of 10\.0 % between rounds in this run \(largest 30\.0 %, 3 cells\)/);
});

test('the header names the RTT asked for and what the proxy added over the run', () => {
  const r = fixture();
  r.settings.network = { name: 'rtt 1 ms', rttMs: 1, addedRttP50Ms: 1.002, addedRttP99Ms: 1.991 };
  assert.match(renderTable(r).split('\n')[0], / · network \+1 ms RTT \(added over the run: p50 1\.002 ms, p99 1\.991 ms\)$/);
  assert.equal(describeNetwork({ name: 'loopback', rttMs: 0 }), 'loopback');
  // Results of older releases measured the added RTT before the run.
  assert.equal(describeNetwork({ name: 'lan', rttMs: 0.5, measuredAddedMs: 0.556 }), '+0.5 ms RTT (measured +0.556 ms before the run)');
  r.settings.network = { name: 'loopback', rttMs: 0 };
  assert.doesNotMatch(renderTable(r), /network/);
});
