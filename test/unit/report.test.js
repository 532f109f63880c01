import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable } from '../../lib/reporting/table.js';
import { describeNetwork, describeSignificanceRule } from '../../lib/reporting/format.js';
import { createResults, readResults, serialize } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { addSecret } from '../../lib/common/redact.js';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Twelve rounds' window figures around `opsPerSec`, moving together across drivers (the host). */
const windows = (opsPerSec, wobble = () => 0) => Array.from({ length: 12 }, (_, i) => ({ round: i, opsPerSec: opsPerSec * (1 + ((i % 5) - 2) / 100) * (1 + wobble(i)) }));

function fixture() {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: '10.11.0-MariaDB', kind: 'mariadb', embedded: true },
    drivers: [{ name: 'mysql', version: '2.18.1' }, { name: 'mysql2', version: '3.0.0' }, { name: 'mariadb', version: '3.5.0' }],
    settings: { baseline: 'mysql', concurrency: 1, time: 3 },
  });
  const ok = (driver, opsPerSec, protocol = 'text') => ({
    driver, protocol, ok: true, status: 'ok', error: null, opsPerSec, rme: 0.8, samples: 60, latency: { p50: 80, p90: 90, p99: 150, max: 900 },
    rounds: windows(opsPerSec),
  });
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

test('deltas are paired against the baseline of the same bench, or the first driver that ran it, with the reason', () => {
  const r = fixture();
  const [doRows, execRows] = r.benches.map((b) => b.results);
  assert.equal(doRows[0].deltaPct, 0);
  assert.ok(Math.abs(doRows[1].deltaPct - 20) < 1e-9);
  assert.ok(Math.abs(doRows[2].deltaPct + 10) < 1e-9);
  assert.deepEqual(doRows[1].deltaCI.map((x) => Math.round(x * 1e6) / 1e6), [20, 20], 'the host moved both alike: the paired ratio did not move');
  assert.equal(doRows[1].deltaSignificant, true);
  assert.equal(r.benches[0].deltaReference, 'mysql');
  assert.equal(r.benches[0].deltaNote, null);
  // mysql has no prepared statements: the Δ of execute is against mysql2, the first driver that ran it.
  assert.equal(r.benches[1].deltaReference, 'mysql2');
  assert.equal(r.benches[1].deltaNote, 'no Δ: only mysql2 was measured (mysql: no prepared statements)');
  assert.equal(execRows[1].deltaPct, 0);
  assert.equal(execRows[2].deltaPct, null, 'a failed row has no Δ');
});

test('with two measured rows and the baseline n/a, the reference is named and the other row gets a paired Δ', () => {
  const r = fixture();
  const exec = r.benches[1];
  exec.results[2] = { ...r.benches[0].results[2], driver: 'mariadb', protocol: 'binary', opsPerSec: 7500, rounds: windows(7500) };
  applyDeltas(r);
  assert.equal(exec.deltaReference, 'mysql2');
  assert.equal(exec.deltaNote, 'Δ against mysql2 (mysql: no prepared statements)');
  assert.ok(Math.abs(exec.results[2].deltaPct - 50) < 1e-9);
  assert.equal(exec.results[2].deltaSignificant, true);
  const text = renderTable(r);
  assert.match(text, /│\s+│ mysql2\s+│ binary\s+│\s+5,000 │.*│\s+reference │/);
  assert.match(text, /│\s+│ mariadb\s+│ binary\s+│\s+7,500 │.*│\s+\+50\.0 % ±0\.0 │/);
  assert.match(text, /execute: Δ against mysql2 \(mysql: no prepared statements\)/);
});

test('the table shows each row, the baseline, n/a and failures with their reasons', () => {
  const text = renderTable(fixture());
  assert.match(text, /MariaDB 10\.11\.0-MariaDB \(embedded\)/);
  assert.match(text, /│ do\s+│ mysql\s+│ text\s+│\s+10,000 │\s+0\.8 % │\s+60 │\s+80\.0 │\s+150 │\s+baseline │/);
  assert.match(text, /│\s+│ mysql2\s+│ text\s+│\s+12,000 │.*\+20\.0 % ±0\.0 │/);
  assert.match(text, /│\s+│ mariadb\s+│ text\s+│\s+9,000 │.*-10\.0 % ±0\.0 │/);
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

test('a run states its resolution: the median half-width of its paired Δ intervals; within it a Δ is ~', () => {
  let r = fixture();
  // mysql2 wobbles ±4 % against mysql from round to round; mariadb does not.
  r.benches[0].results[1].rounds = windows(12000, (i) => (i % 2 ? 0.04 : -0.04));
  r = applyDeltas(r);
  const mysql2 = r.benches[0].results[1];
  assert.ok(mysql2.deltaCI[0] < 20 && mysql2.deltaCI[1] > 20, JSON.stringify(mysql2.deltaCI));
  assert.equal(r.resolution.rows, 2);
  assert.ok(r.resolution.pct > 0 && r.resolution.largestPct >= r.resolution.pct);
  assert.deepEqual([r.resolution.comparisons, r.resolution.jointLevel, r.resolution.eachLevel], [2, 0.95, 0.975]);
  assert.match(renderTable(r), /resolution: this run resolves differences above \d+\.\d % \(the median half-width of its paired Δs' intervals, 95 % together over the run's 2 Δs: each at 97\.5 %; 2 rows; widest ±\d+\.\d %\)/);
  // A Δ inside the run's resolution is shown as ~, even when its own interval excludes 0.
  r.benches[0].results[2].rounds = windows(10100);
  r.benches[0].results[1].rounds = windows(30000, (i) => (i % 2 ? 0.5 : -0.4));
  r = applyDeltas(r);
  assert.ok(r.resolution.pct > 1, JSON.stringify(r.resolution));
  assert.equal(r.benches[0].results[2].deltaSignificant, false);
  assert.match(renderTable(r), /│\s+│ mariadb\s+│ text\s+│.*│\s+~ \+1\.0 % ±0\.0 │/);
  assert.match(renderTable(r), /^ {2}~ : not significant: the paired Δ's interval includes 0, or \|Δ\| ≤ the resolution \(\d+\.\d %\); method: docs\/measuring\.md#how-to-read-the-numbers$/m);
  assert.equal(describeSignificanceRule(null), '~ : not significant: too few rounds for an interval of the paired Δ; method: docs/measuring.md#how-to-read-the-numbers');
  // The method the note names is a heading of that page, and the line stays short.
  const method = readFileSync(new URL('../../docs/measuring.md', import.meta.url), 'utf8');
  assert.match(method, /^## How to read the numbers$/m);
  assert.ok(describeSignificanceRule(r.resolution).length <= 140, describeSignificanceRule(r.resolution));
});

test('the header names the RTT asked for, what a client saw added and what the proxy held', () => {
  const r = fixture();
  r.settings.network = { name: 'rtt 1 ms', rttMs: 1, addedRttP50Ms: 1.002, addedRttP99Ms: 1.991 };
  assert.match(renderTable(r).split('\n')[0], / · network \+1 ms RTT \(added over the run: p50 1\.002 ms, p99 1\.991 ms\)$/); // before the tuned proxy
  r.settings.network = {
    name: 'rtt 1 ms', rttMs: 1, addedRttP50Ms: 0.812, addedRttP99Ms: 1.308,
    calibration: { calibrated: true, observed: { addedMs: 0.995 }, after: { addedMs: 0.944 } },
  };
  assert.match(renderTable(r).split('\n')[0], / · network \+1 ms RTT \(a client saw \+0\.995 ms before the run, \+0\.944 ms after; the proxy held p50 0\.812 ms, p99 1\.308 ms\)$/);
  assert.equal(describeNetwork({ name: 'wan', rttMs: 60, addedRttP50Ms: 60.01, addedRttP99Ms: 60.2, calibration: { calibrated: false } }),
    '+60 ms RTT (not tuned: the proxy held p50 60.01 ms, p99 60.2 ms, plus its own path cost)');
  assert.equal(describeNetwork({ name: 'loopback', rttMs: 0 }), 'loopback');
  // Results of older releases measured the added RTT before the run.
  assert.equal(describeNetwork({ name: 'lan', rttMs: 0.5, measuredAddedMs: 0.556 }), '+0.5 ms RTT (measured +0.556 ms before the run)');
  r.settings.network = { name: 'loopback', rttMs: 0 };
  assert.doesNotMatch(renderTable(r), /network/);
});

test('a run\'s Δ intervals hold together at 95 %: a Δ that one 95 % interval would call is ~ among seven', () => {
  // Seven benches, mysql2 1.5 % faster than mysql in 18 rounds of 24 and 1.5 % slower in 6: alone, the
  // 95 % interval of its median excludes 0; as one of the run's seven Δs (each at 99.29 %), it does not.
  const rounds = (f) => Array.from({ length: 24 }, (_, i) => ({ round: i, opsPerSec: 10000 * f(i) }));
  const oneBench = (name) => ({
    name, title: name, sql: 'DO 1', results: [
      { driver: 'mysql', ok: true, status: 'ok', opsPerSec: 10000, rounds: rounds(() => 1) },
      { driver: 'mysql2', ok: true, status: 'ok', opsPerSec: 10150, rounds: rounds((i) => (i % 4 === 3 ? 0.985 : 1.015)) },
    ],
  });
  const run = (benches) => applyDeltas({ settings: { baseline: 'mysql' }, drivers: [{ name: 'mysql' }, { name: 'mysql2' }], benches: benches.map(oneBench) });
  const alone = run(['do']);
  assert.equal(alone.resolution.eachLevel, 0.95);
  assert.ok(alone.benches[0].results[1].deltaCI[0] > 0, JSON.stringify(alone.benches[0].results[1].deltaCI));
  const seven = run(['do', 'insert', 'batch', 'pipelining', 'select_100_cols', 'select_1000_rows', 'execute']);
  assert.equal(seven.resolution.comparisons, 7);
  assert.ok(Math.abs(seven.resolution.eachLevel - (1 - 0.05 / 7)) < 1e-12);
  for (const bench of seven.benches) {
    const row = bench.results[1];
    assert.ok(row.deltaCI[0] < 0 && row.deltaCI[1] > 0, JSON.stringify(row.deltaCI));
    assert.equal(row.deltaSignificant, false);
  }
});

test('a Δ whose rows\' processes differ among themselves gets a note saying so', async () => {
  const { processSpreadNote } = await import('../../lib/reporting/format.js');
  const r = fixture();
  // mysql2's four processes: two 30 % slower than the other two, for the whole bench.
  r.benches[0].results[1].rounds = Array.from({ length: 48 }, (_, i) => ({
    round: i, process: i % 4, opsPerSec: 12000 * (1 + ((i % 5) - 2) / 100) * (i % 4 < 2 ? 0.7 : 1),
  }));
  r.benches[0].results[0].rounds = Array.from({ length: 48 }, (_, i) => ({ round: i, process: (i + Math.floor(i / 4)) % 4, opsPerSec: 10000 * (1 + ((i % 3) - 1) / 100) }));
  r.benches[0].results[2].rounds = Array.from({ length: 48 }, (_, i) => ({ round: i, process: i % 4, opsPerSec: 11000 * (1 + ((i % 5) - 2) / 100) }));
  applyDeltas(r);
  const [, mysql2, mariadb] = r.benches[0].results;
  assert.ok(mysql2.deltaProcessSdPct >= 5, JSON.stringify(mysql2));
  assert.ok(mariadb.deltaProcessSdPct < 5, JSON.stringify(mariadb));
  assert.match(processSpreadNote(r.benches[0], mysql2), /^do · mysql2: the processes of mysql2 or mysql differ among themselves \(±\d+\.\d % on this Δ from their draw alone, in its interval\)/);
  assert.equal(processSpreadNote(r.benches[0], mariadb), null);
  assert.match(renderTable(r), /do · mysql2: the processes of mysql2 or mysql differ among themselves/);
  assert.doesNotMatch(renderTable(r), /do · mariadb: the processes/);
});

test('a Δ that moved between the halves of its rounds gets a note; a steady one does not', async () => {
  const { driftNote } = await import('../../lib/reporting/format.js');
  const r = fixture();
  const wobble = (i) => 1 + ((i % 5) - 2) / 100;
  r.benches[0].results[0].rounds = Array.from({ length: 60 }, (_, i) => ({ round: i, process: i % 4, opsPerSec: 10000 * wobble(i + 1) }));
  // mysql2 a third slower in the first half (still warming up), mariadb steady.
  r.benches[0].results[1].rounds = Array.from({ length: 60 }, (_, i) => ({ round: i, process: i % 4, opsPerSec: (i < 30 ? 8000 : 12000) * wobble(i) }));
  r.benches[0].results[2].rounds = Array.from({ length: 60 }, (_, i) => ({ round: i, process: i % 4, opsPerSec: 11000 * wobble(i) }));
  applyDeltas(r);
  const [, mysql2, mariadb] = r.benches[0].results;
  assert.equal(mysql2.deltaDrift.moved, true, JSON.stringify(mysql2.deltaDrift));
  assert.equal(mariadb.deltaDrift.moved, false, JSON.stringify(mariadb.deltaDrift));
  assert.match(driftNote(r.benches[0], mysql2), /^do · mysql2: Δ moved from -2\d\.\d % in the first half of the rounds to \+1\d\.\d % in the second: mysql2 or mysql changed speed/);
  assert.equal(driftNote(r.benches[0], mariadb), null);
  assert.match(renderTable(r), /do · mysql2: Δ moved from/);
  assert.doesNotMatch(renderTable(r), /do · mariadb: Δ moved/);
  const { renderResultsMarkdown } = await import('../../lib/reporting/markdown.js');
  assert.match(renderResultsMarkdown(r), /- do · mysql2: Δ moved from/);
  assert.doesNotMatch(renderResultsMarkdown(r), /do · mariadb: Δ moved/);
  const { renderResultsHtml } = await import('../../lib/reporting/html.js');
  assert.match(renderResultsHtml(r), /<li>do · mysql2: Δ moved from/);
  assert.doesNotMatch(renderResultsHtml(r), /do · mariadb: Δ moved/);
});
