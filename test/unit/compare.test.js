// `compare`: matching rows, the change of each row's paired Δ against an anchor (a driver unchanged
// in both runs) with its interval, geometric means, warnings, exit codes. Fixtures are synthetic
// results objects built here, not measurements.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareResults, geometricMean } from '../../lib/results/compare.js';
import { unchangedDrivers } from '../../lib/results/compare-anchor.js';
import { renderComparisonText, fmtJudged, rowNote } from '../../lib/reporting/compare-text.js';
import { createResults, serialize } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { HOST_FOLLOW, eachIntervalLevel, pairedChangeBetweenRuns, pairedDelta } from '../../lib/measuring/figures/paired-delta.js';
import { main } from '../../lib/cli/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-compare-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Synthetic rounds around `level`: a fixed ±1 % zig-zag whose phase differs per driver (so the paired
 * ratios scatter and have an interval), taken in turn by four processes.
 */
const roundsAround = (level, phase, n = 39) => Array.from({ length: n }, (_, i) => (
  { round: i, process: i % 4, opsPerSec: level * (1 + (((i * 7 + phase) % 13) - 6) / 600) }));
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

function row(driver, level, protocol = 'text', phase = 0) {
  const rounds = roundsAround(level, phase);
  const sampleOpsPerSec = rounds.map((r) => r.opsPerSec);
  return { driver, protocol, ok: true, status: 'ok', error: null, opsPerSec: mean(sampleOpsPerSec), rme: 1.1, samples: sampleOpsPerSec.length, sampleOpsPerSec, rounds, latency: { p50: 1, p90: 2, p99: 3, max: 4 } };
}

/** A synthetic run: three drivers, three benches; `scale[driver]` multiplies that driver's figures. */
function fixture({ scale = {}, server = '10.11.0-MariaDB', wake = 'spin:1', extra } = {}) {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: server, kind: 'mariadb', embedded: true, blackhole: true, bulk: true },
    drivers: [{ name: 'mysql', version: '2.18.1' }, { name: 'mysql2', version: '3.0.0' }, { name: 'mariadb', version: '3.5.0' }],
    settings: { baseline: 'mysql', concurrency: 1, time: 3, mode: 'default', wake },
  });
  const levels = { do: 1000, insert: 500, select_100_cols: 300 };
  for (const [bench, level] of Object.entries(levels)) {
    r.benches.push({
      name: bench, title: bench, sql: 'SQL',
      results: ['mariadb', 'mysql', 'mysql2'].map((d, i) => row(d, level * (1 + i / 10) * (scale[d] ?? 1), 'text', 5 * i)),
    });
  }
  r.benches.push({
    name: 'execute', title: 'exec', sql: 'SQL', results: [
      { driver: 'mysql', protocol: 'n/a', ok: false, status: 'n/a', error: 'not supported by driver: no prepared statements' },
      row('mysql2', 400, 'binary', 3),
      row('mariadb', 420, 'binary', 8),
    ],
  });
  extra?.(r);
  r.complete = true;
  return applyDeltas(r);
}

/** A copy of `results` whose figures for `driver` are cut by `pct` % in every window. */
function cut(results, driver, pct) {
  const copy = structuredClone(results);
  const f = 1 - pct / 100;
  for (const b of copy.benches) {
    for (const r of b.results) {
      if (r.driver !== driver || !r.ok) continue;
      r.opsPerSec *= f;
      r.sampleOpsPerSec = r.sampleOpsPerSec.map((x) => x * f);
      r.rounds = r.rounds.map((x) => ({ ...x, opsPerSec: x.opsPerSec * f }));
    }
  }
  return copy;
}

/** A copy of `results` in which `driver` is another release (its code changed). */
function release(results, driver, version = '9.9.9') {
  const copy = structuredClone(results);
  copy.drivers = copy.drivers.map((d) => (d.name === driver ? { ...d, version } : d));
  return copy;
}

const rowOf = (c, bench, driver) => c.rows.find((r) => r.bench === bench && r.driver === driver);

test('rows are matched by bench and driver and judged against the baseline, unchanged in both runs', () => {
  const base = fixture();
  const c = compareResults(base, cut(base, 'mysql2', 20));
  assert.equal(c.kind, 'comparison');
  assert.equal(c.mode, 'relative');
  assert.equal(c.rows.length, 3 * 3 + 2); // execute · mysql is n/a on both sides: nothing to compare
  // Ordered by bench, then by the run's driver order (not the rotated measuring order).
  assert.deepEqual(c.rows.slice(0, 3).map((r) => `${r.bench}/${r.driver}`), ['do/mysql', 'do/mysql2', 'do/mariadb']);
  for (const bench of ['do', 'insert', 'select_100_cols']) {
    assert.equal(rowOf(c, bench, 'mysql').judged, 'anchor');
    assert.equal(fmtJudged(rowOf(c, bench, 'mysql')), 'anchor');
    const r = rowOf(c, bench, 'mysql2');
    assert.equal(r.judged, 'relative');
    assert.equal(r.anchor, 'mysql');
    assert.ok(Math.abs(r.deltaPct + 20) < 1e-9, `${bench}: Δ ${r.deltaPct}`);
    assert.ok(Math.abs(r.opsDeltaPct + 20) < 1e-9);
    assert.equal(r.significant, true);
    assert.equal(r.change, 'slower');
    assert.match(fmtJudged(r), /^-20\.0 % ±\d\.\d$/);
    const m = rowOf(c, bench, 'mariadb');
    assert.equal(m.deltaPct, 0);
    assert.equal(m.significant, false);
    assert.match(fmtJudged(m), /^~ 0\.0 % ±\d\.\d$/);
  }
  // execute: mysql has no prepared statements, so the next unchanged driver (mysql2) anchors it.
  assert.equal(rowOf(c, 'execute', 'mysql2').judged, 'anchor');
  assert.equal(rowOf(c, 'execute', 'mariadb').anchor, 'mysql2');
  assert.equal(c.anchor, 'mysql');
  assert.deepEqual(c.anchors, ['mysql', 'mysql2']);
  // (its anchor mysql2 is 20 % slower here, read as the host's change of speed: ± widened)
  assert.match(rowNote(rowOf(c, 'execute', 'mariadb'), c), /^vs mysql2; ± includes 2\.7 % for the host's change of speed$/);
  assert.equal(rowNote(rowOf(c, 'do', 'mariadb'), c), '');
  assert.deepEqual(c.warnings, []);
  assert.deepEqual(c.regressions, []); // no threshold: nothing is judged a regression
});

test("a row's interval is both runs' paired intervals, combined, at the comparison's joint level", () => {
  const base = fixture();
  const next = cut(fixture({ scale: { mysql: 0.7, mysql2: 0.7, mariadb: 0.7 } }), 'mysql2', 5);
  const c = compareResults(base, next);
  const judged = c.rows.filter((r) => r.judged === 'relative');
  assert.equal(judged.length, 7);
  const level = eachIntervalLevel(7);
  assert.equal(c.eachLevel, level);
  const rowsOf = (r, bench) => Object.fromEntries(r.benches.find((b) => b.name === bench).results.map((x) => [x.driver, x]));
  const [a, b] = [rowsOf(base, 'insert'), rowsOf(next, 'insert')];
  const pa = pairedDelta(a.mysql2.rounds, a.mysql.rounds, level);
  const pb = pairedDelta(b.mysql2.rounds, b.mysql.rounds, level);
  const hostShift = b.mysql.opsPerSec / a.mysql.opsPerSec;
  const expected = pairedChangeBetweenRuns(pa, pb, { hostShift });
  const r = rowOf(c, 'insert', 'mysql2');
  assert.ok(Math.abs(r.hostTermPct - Math.expm1(HOST_FOLLOW * Math.abs(Math.log(hostShift))) * 100) < 1e-9);
  assert.deepEqual([r.deltaPct, r.ci], [expected.deltaPct, expected.ci]);
  assert.deepEqual([r.base.vsAnchorPct, r.new.vsAnchorPct], [pa.deltaPct, pb.deltaPct]);
  assert.ok(r.ci[0] < r.deltaPct && r.deltaPct < r.ci[1]);
  // The combination, by hand: on the log scale, the new run's lower half with the base's upper.
  const log = (p) => Math.log1p(p / 100);
  const lower = log(pb.deltaPct) - log(pa.deltaPct)
    - Math.hypot(log(pb.deltaPct) - log(pb.ci[0]), log(pa.ci[1]) - log(pa.deltaPct), HOST_FOLLOW * Math.abs(Math.log(hostShift)));
  assert.ok(Math.abs(Math.expm1(lower) * 100 - r.ci[0]) < 1e-9);
  assert.match(c.rule, /the 7 intervals holding together at 95 % \(each at 99\.29 %\)/);
});

test("the host's speed moving every row alike is no change; 5 % on one driver is one", () => {
  const base = fixture();
  const slowHost = fixture({ scale: { mysql: 0.6, mysql2: 0.6, mariadb: 0.6 } });
  const c = compareResults(base, slowHost, { threshold: 5 });
  assert.deepEqual(c.regressions, []);
  assert.ok(c.rows.every((r) => !r.significant));
  assert.ok(Math.abs(rowOf(c, 'do', 'mysql2').opsDeltaPct + 40) < 1e-9);
  assert.ok(c.warnings.some((w) => /moved by a median of -31\.8 %.*the ops\/s Δ column carries that shift; the Δ against the unchanged driver cancels it/.test(w)), c.warnings.join('\n'));

  // Ratios follow the host's speed a little (HOST_FOLLOW): a host 40 % slower widens every ± by 6.1 %,
  // so 5 % on one driver is not called there; a host 10 % slower widens it by 1.3 %, and it is.
  const hidden = compareResults(base, cut(slowHost, 'mysql2', 5), { threshold: 3 });
  assert.deepEqual(hidden.regressions, []);
  assert.ok(hidden.rows.filter((r) => r.judged === 'relative' && r.anchor === 'mysql').every((r) => Math.abs(r.hostTermPct - 6.3) < 0.2), JSON.stringify(hidden.rows.map((r) => r.hostTermPct)));
  assert.match(rowNote(rowOf(hidden, 'do', 'mysql2'), hidden), /± includes 6\.3 % for the host's change of speed/);
  const slower = fixture({ scale: { mysql: 0.9, mysql2: 0.9, mariadb: 0.9 } });
  const five = compareResults(base, cut(slower, 'mysql2', 5), { threshold: 3 });
  assert.deepEqual(five.regressions.map((r) => `${r.bench}/${r.driver}`), ['do/mysql2', 'insert/mysql2', 'select_100_cols/mysql2']);
  for (const r of five.regressions) assert.ok(Math.abs(r.deltaPct + 5) < 1e-9);
  // Faster is never a regression; a change smaller than the threshold is not one either. (A new
  // release of mysql2, so that it does not anchor execute, where mysql has no prepared statements.)
  const newMysql2 = release(cut(slower, 'mysql2', 5), 'mysql2');
  assert.deepEqual(compareResults(newMysql2, release(base, 'mysql2', '1.0.0'), { threshold: 0 }).regressions, []);
  assert.deepEqual(compareResults(base, newMysql2, { threshold: 6 }).regressions, []);
});

test('geometric mean per driver over the benches compared', () => {
  assert.ok(Math.abs(geometricMean([2, 8]) - 4) < 1e-12);
  assert.ok(Number.isNaN(geometricMean([])));
  const base = fixture();
  const c = compareResults(base, release(cut(base, 'mariadb', 20), 'mariadb'));
  const g = Object.fromEntries(c.geomean.map((x) => [x.driver, x]));
  assert.deepEqual(Object.keys(g), ['mysql', 'mysql2', 'mariadb']);
  assert.equal(g.mysql.benches, 3);
  assert.equal(g.mysql.anchor, true);
  assert.equal(g.mariadb.benches, 4);
  assert.ok(Math.abs(g.mariadb.opsDeltaPct + 20) < 1e-9);
  assert.ok(Math.abs(g.mariadb.deltaPct + 20) < 1e-9);
  assert.equal(g.mariadb.slower, 4);
  assert.equal(g.mysql2.anchor, false); // anchor in execute only
  assert.equal(g.mysql2.unchanged, 3);
});

test('the anchor: the baseline when unchanged, else another unchanged driver; never a checkout or an adapter file', () => {
  const base = fixture();
  assert.deepEqual(unchangedDrivers(base, base), ['mysql', 'mysql2', 'mariadb']);
  const newMysql = release(cut(base, 'mysql', 10), 'mysql');
  const c = compareResults(base, newMysql, { threshold: 5 });
  assert.equal(c.anchor, 'mysql2');
  assert.equal(rowOf(c, 'do', 'mysql').judged, 'relative');
  assert.ok(Math.abs(rowOf(c, 'do', 'mysql').deltaPct + 10) < 1e-9);
  assert.equal(c.regressions.length, 3);

  // A local checkout or an adapter module can change under the same label and version.
  for (const d of [{ local: true, source: 'mysql2@file:/src/node-mysql2' }, { source: './my-adapter.js' }, { source: '/abs/adapter.mjs' }]) {
    const [a, b] = [structuredClone(base), structuredClone(base)];
    for (const r of [a, b]) r.drivers = r.drivers.map((x) => (x.name === 'mysql2' ? { ...x, ...d } : x));
    assert.deepEqual(unchangedDrivers(a, b), ['mysql', 'mariadb'], JSON.stringify(d));
  }
  // Options are part of the code that ran.
  const variant = structuredClone(base);
  variant.drivers[0] = { ...variant.drivers[0], options: { trace: true } };
  assert.deepEqual(unchangedDrivers(base, variant), ['mysql2', 'mariadb']);

  // --anchor chooses; an anchor that changed is used, with a warning.
  const chosen = compareResults(base, newMysql, { anchor: 'mariadb' });
  assert.equal(chosen.anchor, 'mariadb');
  const changed = compareResults(base, newMysql, { anchor: 'mysql' });
  assert.equal(changed.anchor, 'mysql');
  assert.match(changed.warnings.join('\n'), /the anchor mysql is not the same code in both runs/);
});

test('no driver unchanged: absolute changes, not judged, and said so', () => {
  const base = fixture();
  let next = cut(base, 'mysql2', 30);
  for (const d of ['mysql', 'mysql2', 'mariadb']) next = release(next, d);
  const c = compareResults(base, next, { threshold: 5 });
  assert.equal(c.mode, 'absolute');
  assert.equal(c.anchor, null);
  assert.ok(c.rows.every((r) => r.judged === 'absolute' && !r.significant && fmtJudged(r) === 'not judged'));
  assert.ok(Math.abs(rowOf(c, 'do', 'mysql2').opsDeltaPct + 30) < 1e-9);
  assert.deepEqual(c.regressions, []);
  assert.match(c.warnings.join('\n'), /no driver ran the same code in both runs: every change is absolute, exposed to the host's speed .*\(--drivers mysql2@A,mysql2@B\)/);
  assert.equal(compareResults(base, base, { anchor: 'none' }).mode, 'absolute');
});

test('a row that passed in the base run and fails in the new one is listed, and is a regression under a threshold', () => {
  const base = fixture();
  const next = structuredClone(base);
  Object.assign(next.benches[0].results.find((r) => r.driver === 'mariadb'), { ok: false, status: 'failed', error: 'wrong value', opsPerSec: undefined });
  const c = compareResults(base, next, { threshold: 50 });
  assert.deepEqual(c.notCompared, [{ bench: 'do', driver: 'mariadb', base: 'ok', new: 'failed', error: 'wrong value' }]);
  assert.equal(c.regressions.length, 1);
  assert.match(c.regressions[0].reason, /failed: wrong value/);
  assert.deepEqual(compareResults(base, next).regressions, []);
});

test('rows present in only one run are listed separately', () => {
  const base = fixture();
  const next = fixture({ extra: (r) => { r.benches.shift(); r.benches.push({ name: 'batch', title: 'b', sql: 'x', results: [row('mysql', 10)] }); } });
  const c = compareResults(base, next);
  assert.deepEqual(c.onlyInBase.map((r) => `${r.bench}/${r.driver}`), ['do/mysql', 'do/mysql2', 'do/mariadb']);
  assert.deepEqual(c.onlyInNew.map((r) => `${r.bench}/${r.driver}`), ['batch/mysql']);
  const text = renderComparisonText(c);
  assert.match(text, /only in base: do · mysql, do · mysql2, do · mariadb/);
  assert.match(text, /only in new: batch · mysql/);
});

test('one warning line per condition that makes the runs incomparable', () => {
  const base = fixture();
  const next = fixture({ server: '10.6.2-MariaDB', wake: 'none' });
  next.env.node = 'v22.1.0';
  next.settings.concurrency = 4;
  next.server.embedded = false;
  const w = compareResults(base, next).warnings;
  assert.equal(w.length, 5);
  assert.match(w[0], /^server version differs: 10\.11\.0-MariaDB \(base\) vs 10\.6\.2-MariaDB \(new\)/);
  assert.match(w.join('\n'), /^server differs: embedded \(base\) vs remote \(new\)/m);
  assert.match(w.join('\n'), /^Node version differs: v20\.0\.0 \(base\) vs v22\.1\.0 \(new\)/m);
  assert.match(w.join('\n'), /^concurrency differs: 1 \(base\) vs 4 \(new\)/m);
  assert.match(w.join('\n'), /^wake mode differs: spin:1 \(base\) vs none \(new\)/m);
  for (const line of w) assert.doesNotMatch(line, /\n/);
  // A recorded wake mode against none recorded is a difference too; the network setting likewise.
  const old = fixture();
  delete old.settings.wake;
  assert.match(compareResults(old, base).warnings.join('\n'), /wake mode differs: not recorded \(base\) vs spin:1 \(new\)/);
  const net = fixture();
  net.settings.network = { delayMs: 1 };
  assert.match(compareResults(base, net).warnings.join('\n'), /network differs: not recorded \(base\) vs \{"delayMs":1\} \(new\)/);
  // The network compared is the one asked for; what the proxy measured differs in every run.
  const measured = (p50) => ({ name: 'rtt 1 ms', rttMs: 1, addedRttP50Ms: p50, addedRttP99Ms: 2 * p50, proxyCpuSeconds: p50 });
  const [rtt1, rtt1Again, rtt2] = [fixture(), fixture(), fixture()];
  rtt1.settings.network = measured(1.004);
  rtt1Again.settings.network = measured(1.09);
  rtt2.settings.network = { ...measured(2.01), name: 'rtt 2 ms', rttMs: 2 };
  assert.doesNotMatch(compareResults(rtt1, rtt1Again).warnings.join('\n'), /network/);
  assert.match(compareResults(rtt1, rtt2).warnings.join('\n'), /network differs: \+1 ms RTT through a proxy \(base\) vs \+2 ms RTT through a proxy \(new\)/);
  // Held in the driver processes against through a proxy (results from before --rtt-via: a proxy).
  const held = fixture();
  held.settings.network = { name: 'rtt 1 ms', rttMs: 1, via: 'process', holdMs: 0.48 };
  assert.match(compareResults(rtt1, held).warnings.join('\n'), /network differs: \+1 ms RTT through a proxy \(base\) vs \+1 ms RTT held in the driver processes \(new\)/);
  // Rows measured in one process against rows averaged over four: a warning, not a refusal.
  const [one, four] = [fixture(), fixture()];
  four.settings.processes = 4;
  assert.match(compareResults(one, four).warnings.join('\n'), /^processes per driver differs: .* \(base\) vs 4 \(new\) — the figures may not be comparable$/m);
  assert.doesNotMatch(compareResults(four, four).warnings.join('\n'), /processes/);
  // The embedded server's data in memory against on the disk (older runs: the disk); a remote server has none.
  const [disk, memory] = [fixture(), fixture()];
  memory.server.storage = 'memory';
  assert.match(compareResults(disk, memory).warnings.join('\n'), /^the embedded server's data differs: disk \(base\) vs memory \(new\) — the figures may not be comparable$/m);
  assert.doesNotMatch(compareResults(memory, memory).warnings.join('\n'), /server's data/);
  // A run whose warm-ups ran until each process was up to speed against one of fixed warm-ups.
  const settling = fixture();
  settling.settings.warmupSettles = true;
  assert.match(compareResults(one, settling).warnings.join('\n'), /^warm-up differs: as given \(base\) vs until each process is up to speed \(new\) — the figures may not be comparable$/m);
  assert.doesNotMatch(compareResults(settling, settling).warnings.join('\n'), /warm-up/);
});

test('runs that waited for V8\'s compiles and runs that did not are incomparable; files from before --jit compiled in the background', () => {
  const [wait, background, old] = [fixture(), fixture(), fixture()];
  wait.settings.jit = 'wait';
  background.settings.jit = 'background';
  delete old.settings.jit;
  assert.match(compareResults(background, wait).warnings.join('\n'), /^JIT compiles differs: background \(base\) vs wait \(new\) — the runs are incomparable/m);
  assert.doesNotMatch(compareResults(old, background).warnings.join('\n'), /JIT/);
});

test('rows without rounds (results from before the interleaved design) are shown as not tested, never as significant', () => {
  const base = fixture();
  const old = structuredClone(base);
  for (const b of old.benches) for (const r of b.results) delete r.rounds;
  const c = compareResults(old, cut(base, 'mysql2', 50), { threshold: 10 });
  assert.equal(c.mode, 'relative');
  assert.ok(c.rows.every((r) => !r.significant && ['anchor', '?'].includes(fmtJudged(r))), c.rows.map(fmtJudged).join());
  assert.equal(c.rows.filter((r) => r.judged === 'untested').length, 7);
  assert.deepEqual(c.regressions, []);
  assert.match(c.warnings.at(-1), /7 rows not tested \(too few rounds for an interval, or results without rounds from an older version\): shown as \?/);
});

// --- the command -------------------------------------------------------------------------------

function sink() {
  let text = '';
  return { write: (s) => { text += s; return true; }, get text() { return text; }, isTTY: false };
}

async function cli(args) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function save(name, results) {
  const file = join(dir, name);
  writeFileSync(file, serialize(results));
  return file;
}

test('compare: table, exit 1 only for a significant regression beyond --threshold', async () => {
  const base = save('base.json', fixture());
  const cutFile = save('cut.json', cut(fixture(), 'mysql2', 20));
  const same = await cli(['compare', base, base]);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /│ bench\s+│ driver\s+│ base ops\/s │ new ops\/s │ ops\/s Δ │ vs mysql: base → new │\s+Δ vs mysql │ note\s+│/);
  assert.match(same.stdout, /│ do\s+│ mysql\s+│\s+1,100 │\s+1,100 │\s+0\.0 % │\s+│\s+anchor │/);
  assert.match(same.stdout, /│\s+│ mysql2\s+│\s+1,200 │\s+1,200 │\s+0\.0 % │\s+\+10\.0 % → \+10\.0 % │\s+~ 0\.0 % ±\d\.\d │/);
  assert.match(same.stdout, /^base: .*base\.json \(2026-01-01T00:00:00\.000Z\) · MariaDB 10\.11\.0-MariaDB \(embedded\)/m);
  assert.match(same.stdout, /│ geomean\s+│ mysql\s+│/);
  assert.match(same.stdout, /^Δ vs mysql: the change between the runs of the row's paired Δ against mysql, the same code in both runs \(in a bench mysql did not run, against mysql2, as the row's note says\); /m);
  assert.match(same.stdout, /│ execute\s+│ mysql2\s+│.*│\s+anchor │\s+│\n│\s+│ mariadb\s+│.*│ vs mysql2\s+│/);
  assert.equal(same.stderr, '');

  const r10 = await cli(['compare', base, cutFile, '--threshold', '10']);
  assert.equal(r10.code, 1);
  assert.match(r10.stdout, /│\s+│ mysql2\s+│\s+1,200 │\s+960 │\s+-20\.0 % │\s+\+10\.0 % → -12\.\d % │\s+-20\.0 % ±\d\.\d │ REGRESSION/);
  assert.match(r10.stdout, /REGRESSION: do · mysql2 -20\.0 %, insert · mysql2 -20\.0 %/);
  assert.equal((await cli(['compare', base, cutFile, '--threshold', '25'])).code, 0);
  assert.equal((await cli(['compare', base, cutFile])).code, 0);
});

test('compare: --threshold without an anchor, or an --anchor that is not in both runs, exits 2 with one line', async () => {
  const base = save('base.json', fixture());
  let all = fixture();
  for (const d of ['mysql', 'mysql2', 'mariadb']) all = release(all, d);
  const allNew = save('all-new.json', all);
  const r = await cli(['compare', base, allNew, '--threshold', '5']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^mysql-driver-bench: error: --threshold needs an anchor, a driver that ran the same code in both runs: no driver ran the same code in .*base\.json' and .*all-new\.json'.* — measure the two versions as rows of one run \(--drivers mysql2@A,mysql2@B\)/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  // Without --threshold the absolute figures are shown, with the warning, and nothing is judged.
  const shown = await cli(['compare', base, allNew]);
  assert.equal(shown.code, 0);
  assert.match(shown.stdout, /not judged/);
  assert.match(shown.stderr, /warning: no driver ran the same code in both runs/);

  assert.equal((await cli(['compare', base, base, '--threshold', '5', '--anchor', 'none'])).code, 2);
  const unknown = await cli(['compare', base, base, '--anchor', 'pg']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--anchor pg: not a driver of .*base\.json and .*base\.json — drivers that ran the same code in both runs: mysql, mysql2, mariadb/);
  const chosen = await cli(['compare', base, base, '--anchor', 'mariadb', '--json', '-']);
  assert.equal(JSON.parse(chosen.stdout).anchor, 'mariadb');
});

test('compare: a different server version is one warning line on stderr', async () => {
  const base = save('base.json', fixture());
  const other = save('other.json', fixture({ server: '10.6.2-MariaDB' }));
  const r = await cli(['compare', base, other]);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, 'mysql-driver-bench: warning: server version differs: 10.11.0-MariaDB (base) vs 10.6.2-MariaDB (new) — the figures may not be comparable\n');
});

test('compare: unusable input exits 2 with one line', async () => {
  const base = save('base.json', fixture());
  const notResults = join(dir, 'x.json');
  writeFileSync(notResults, '{"a":1}');
  const future = save('future.json', { ...fixture(), schema: 99 });
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{"tool":');
  const empty = save('empty.json', { ...fixture(), benches: [] });
  for (const [file, msg] of [
    [join(dir, 'missing.json'), /cannot read results file .*missing\.json': no such file/],
    [notResults, /is not a mysql-driver-bench results file/],
    [future, /has results schema 99; this version reads schemas 1, 2, 3 and 4/],
    [broken, /cannot read results file/],
    [empty, /have no bench × driver row measured in both/],
  ]) {
    const r = await cli(['compare', base, file]);
    assert.equal(r.code, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, msg);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(r.stdout, '');
  }
  const bad = await cli(['compare', base, base, '--threshold', 'ten']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--threshold must be a number/);
});

test('compare --json - prints only the comparison; --markdown and --html write their forms', async () => {
  const base = save('base.json', fixture());
  const cutFile = save('cut.json', cut(fixture(), 'mysql2', 20));
  const j = await cli(['compare', base, cutFile, '--json', '-', '--threshold', '10', '-q']);
  assert.equal(j.code, 1);
  const parsed = JSON.parse(j.stdout);
  assert.equal(parsed.kind, 'comparison');
  // mysql2 anchors execute (mysql has no prepared statements there): three benches judge it.
  assert.deepEqual(parsed.regressions.map((r) => r.bench), ['do', 'insert', 'select_100_cols']);
  assert.equal(parsed.geomean.length, 3);

  const md = await cli(['compare', base, cutFile, '--markdown', '--threshold', '10']);
  assert.equal(md.code, 1);
  assert.match(md.stdout, /\*\*Regression\*\* \(threshold 10 %\): do · mysql2 -20\.0 %/);
  assert.match(md.stdout, /^### mysql-driver-bench comparison/);
  assert.match(md.stdout, /\|  \| mysql2 \| 1,200 \| 960 \| -20\.0 % \| \+10\.0 % → -12\.\d % \| -20\.0 % ±\d\.\d \| REGRESSION \|/);
  assert.match(md.stderr, /┌/); // the table went to stderr, stdout carries only the Markdown

  const html = join(dir, 'cmp.html');
  const h = await cli(['compare', base, cutFile, '--html', html]);
  assert.equal(h.code, 0);
  assert.ok(existsSync(html));
  assert.match(readFileSync(html, 'utf8'), /<svg class="chart"/);
  assert.match(h.stderr, /HTML written to .*cmp\.html/);

  const both = await cli(['compare', base, cutFile, '--json', '-', '--markdown']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /cannot both go to stdout/);
});

test('unchanged drivers moving together are reported as the host shifting; one driver that changed cannot fake it', () => {
  const base = fixture();
  const slowHost = cut(cut(cut(base, 'mysql', 20), 'mysql2', 20), 'mariadb', 20);
  const c = compareResults(base, slowHost);
  assert.ok(Math.abs(c.hostShiftPct + 20) < 1e-9, `host shift ${c.hostShiftPct}`);
  assert.ok(c.warnings.some((w) => /did not change \(mysql, mysql2, mariadb\) moved by a median of -20\.0 %/.test(w)), c.warnings.join('\n'));

  const oneDriver = compareResults(base, cut(base, 'mysql2', 20));
  assert.equal(oneDriver.hostShiftPct, 0);
  assert.ok(!oneDriver.warnings.some((w) => /moved by/.test(w)));

  // A new release of mysql2 is left out of the estimate: the two others did not move.
  const release = cut(base, 'mysql2', 30);
  release.drivers = release.drivers.map((d) => (d.name === 'mysql2' ? { ...d, version: '3.1.0' } : d));
  const r = compareResults(base, release);
  assert.equal(r.hostShiftPct, 0);
  assert.deepEqual(r.driverChanges.map((d) => d.driver), ['mysql2']);
});

test("the server's CPU per operation gauges the host's speed, also for one driver compared across two releases", () => {
  const withServerCpu = (results, usPerOp) => {
    const copy = structuredClone(results);
    for (const b of copy.benches) for (const r of b.results) r.cost = { clientCpuUsPerOp: 50, gcMsPer1000Ops: 0, serverCpuUsPerOp: usPerOp[b.name] };
    return copy;
  };
  const base = withServerCpu(fixture(), { do: 20, insert: 80, select_100_cols: 60 });
  // mysql2 3.1.0 alone in both runs' comparison of releases: no unchanged driver to judge the host by.
  const release = withServerCpu(cut(base, 'mysql2', 25), { do: 25, insert: 100, select_100_cols: 66 });
  release.drivers = release.drivers.map((d) => (d.name === 'mysql2' ? { ...d, version: '3.1.0' } : d));
  const c = compareResults(base, release);
  assert.ok(Math.abs(c.serverCpuShiftPct - 25) < 1e-9, `server shift ${c.serverCpuShiftPct}`);
  assert.ok(c.warnings.some((w) => /the server needed \+25\.0 % CPU per operation for the same statements \(median of 9 rows\): the host ran slower/.test(w)), c.warnings.join('\n'));

  // The same server CPU per operation: no warning, a shift of 0.
  const same = compareResults(base, withServerCpu(cut(base, 'mysql2', 25), { do: 20, insert: 80, select_100_cols: 60 }));
  assert.equal(same.serverCpuShiftPct, 0);
  assert.ok(!same.warnings.some((w) => /the server needed/.test(w)));

  // Rows whose protocol changed do not count: the server does other work for them.
  const newProtocol = withServerCpu(base, { do: 20, insert: 80, select_100_cols: 600 });
  for (const r of newProtocol.benches.find((b) => b.name === 'select_100_cols').results) r.protocol = 'binary';
  assert.equal(compareResults(base, newProtocol).serverCpuShiftPct, 0);

  // Without server figures (a remote server, older files) there is no gauge.
  const remote = compareResults(fixture(), cut(fixture(), 'mysql2', 25));
  assert.equal(remote.serverCpuShiftPct, null);
});

test("a row's runtime is part of what it ran: another version of it is a change, and such a row is no anchor", () => {
  const onRuntime = (results, version) => {
    const copy = structuredClone(results);
    copy.drivers = copy.drivers.map((d) => (d.name === 'mysql' ? { ...d, runtime: { kind: 'node', version, harness: false, lacks: [] } } : d));
    return copy;
  };
  const base = onRuntime(fixture(), '24.9.0');
  const same = compareResults(base, onRuntime(fixture(), '24.9.0'));
  assert.deepEqual(same.driverChanges, []);
  const moved = compareResults(base, onRuntime(fixture(), '24.21.0'));
  assert.deepEqual(moved.driverChanges.map((d) => [d.driver, d.base, d.new]), [['mysql', '2.18.1 on node 24.9.0', '2.18.1 on node 24.21.0']]);
  // The baseline ran other code (its runtime moved): another unchanged driver anchors the rows.
  const anchorsOf = (c) => new Set(c.rows.map((r) => r.anchor).filter(Boolean));
  assert.ok(anchorsOf(same).has('mysql'));
  assert.ok(anchorsOf(moved).size > 0 && !anchorsOf(moved).has('mysql'), [...anchorsOf(moved)].join());
});

test('compare notes a row whose bytes allocated per operation moved beyond its A/A floor, and no smaller move', () => {
  const row = (bytesPerOp) => ({ driver: 'mysql2', ok: true, status: 'ok', opsPerSec: 1000, allocation: { bytesPerOp, writesPerOp: 1, readsPerOp: 1 } });
  const run = (bytesPerOp) => ({ settings: {}, drivers: [], benches: [{ name: 'do', results: [row(bytesPerOp)] }] });
  const moved = compareResults(run(5000), run(5250)).rows[0];
  assert.equal(moved.allocationDeltaPct, 5);
  assert.match(rowNote(moved), /bytes allocated\/op \+5\.0 % \(more; floor ±1 %\)/);
  const still = compareResults(run(5000), run(5020)).rows[0];
  assert.equal(rowNote(still), '');
  const none = compareResults(run(null), run(5020)).rows[0];
  assert.equal(none.allocationDeltaPct, null, 'a run that did not measure it is not judged on it');
});
