// The verdict every report opens with (results/verdict.js, reporting/verdict-text.js), held against
// the run's own tables on recorded results files: every claim is a significant Δ of the same run
// (or a tie, a not-significant one) with the sign and size the table prints; ties are said as ties;
// count runs say "fewer instructions" or "more" (+ is more work); a release history's verdict is its
// steps, its chart and table next; the terminal, Markdown and HTML reports open with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readResults } from '../../lib/results/file.js';
import { verdict, fastestOf } from '../../lib/results/verdict.js';
import { claimDelta, renderVerdictText, verdictLines } from '../../lib/reporting/verdict-text.js';
import { fmtDelta } from '../../lib/reporting/format.js';
import { renderTable } from '../../lib/reporting/table.js';
import { renderRun, renderSections } from '../../lib/reporting/sections.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';
import { renderHistoryText } from '../../lib/reporting/history.js';

const recorded = (name) => readResults(new URL(`../fixtures/results/${name}.json`, import.meta.url).pathname);

/**
 * readme-example.json (recorded: three drivers, n/a rows) with one more row gone wrong, as a run
 * records a failed row: mariadb's execute failed its check, so it has no Δ.
 */
function withFailedRow() {
  const r = recorded('readme-example');
  const row = r.benches.find((b) => b.name === 'execute').results.find((x) => x.driver === 'mariadb');
  Object.assign(row, { ok: false, status: 'failed', error: 'column i3: expected 3, got 4', opsPerSec: undefined,
    deltaPct: null, deltaCI: null, deltaSignificant: null });
  return r;
}

const FILES = {
  'readme-example': () => recorded('readme-example'),
  'readme-example with a failed row': withFailedRow,
  'aa-end-to-end': () => recorded('aa-end-to-end'),
  'replay-client-cost': () => recorded('replay-client-cost'),
  'count-instructions': () => recorded('count-instructions'),
  'calibrate-count-cycles': () => recorded('calibrate-count-cycles'),
  'smoke-probes': () => recorded('smoke-probes'),
};

const benchOf = (results, claim) => results.benches.find((b) => b.name === claim.benchName && b.concurrency === claim.concurrency);
const DELTA = /[+-]\d+\.\d+ % ±\d+\.\d+/g;

for (const [name, load] of Object.entries(FILES)) {
  test(`every claim of the verdict is a Δ of the same run, as its table prints it (${name})`, () => {
    const results = load();
    const v = verdict(results);
    const digits = results.settings.count ? 2 : 1;
    // Ahead of the reference: above 0 in ops/s, below 0 in a count (+ is more work).
    const ahead = results.settings.count ? -1 : 1;
    const text = renderVerdictText(results);
    for (const c of v.claims) {
      const bench = benchOf(results, c);
      const row = bench.results.find((r) => r.driver === c.driver);
      const what = `${c.kind} ${c.bench} · ${c.driver}`;
      assert.ok(row?.ok, `${what}: a measured row`);
      assert.equal(c.reference, bench.deltaReference, what);
      assert.equal(c.deltaPct, row.deltaPct, what);
      assert.deepEqual(c.deltaCI, row.deltaCI, what);
      if (c.kind === 'faster') assert.ok(row.deltaSignificant === true && ahead * row.deltaPct > 0, what);
      if (c.kind === 'slower') assert.ok(row.deltaSignificant === true && ahead * row.deltaPct < 0, what);
      if (c.kind === 'tied') assert.equal(row.deltaSignificant, false, what);
      // Written as the table writes the row's Δ, and there in the verdict.
      assert.equal(claimDelta(c, digits), fmtDelta(row, bench, results.settings.baseline, { digits }), what);
      assert.ok(text.includes(claimDelta(c, digits)), `${what}: ${claimDelta(c, digits)} in the verdict`);
    }
    // The other way: every Δ the verdict prints is one the table prints.
    const table = renderTable(results);
    for (const d of text.match(DELTA) ?? []) assert.ok(table.includes(d), `${d} is in the table`);
    // A fastest driver is separated from every other row by significant Δs or disjoint intervals.
    for (const b of v.benches.filter((x) => x.fastest)) {
      const bench = results.benches.find((x) => x.name === b.bench);
      const rows = bench.results.filter((r) => r.ok && Number.isFinite(r.deltaPct));
      const w = rows.find((r) => r.driver === b.fastest);
      for (const x of rows.filter((r) => r !== w)) {
        if (w.driver === b.reference) assert.ok(x.deltaSignificant && ahead * x.deltaPct < 0, `${b.bench}: ${x.driver} behind ${w.driver}`);
        else if (x.driver === b.reference) assert.ok(w.deltaSignificant && ahead * w.deltaPct > 0, `${b.bench}: ${w.driver} ahead of ${x.driver}`);
        else if (!(x.deltaSignificant && ahead * x.deltaPct < 0)) {
          assert.ok(ahead > 0 ? w.deltaCI[0] > x.deltaCI[1] : w.deltaCI[1] < x.deltaCI[0], `${b.bench}: ${w.driver} ${ahead > 0 ? 'above' : 'below'} ${x.driver}`);
        }
      }
      assert.match(text, new RegExp(`${b.fastest} (fastest|fewest instructions|fewest estimated cycles): [^\\n]*${b.bench}`));
    }
    // Rows that were not measured are no claim, and are said.
    for (const bench of results.benches) {
      for (const row of bench.results.filter((r) => !r.ok)) {
        assert.ok(!v.claims.some((c) => c.benchName === bench.name && c.driver === row.driver), `${bench.name} · ${row.driver}: no claim`);
        assert.match(text, new RegExp(`${row.driver} ${row.status === 'n/a' ? 'n/a' : 'FAILED'} on [^\\n]*${bench.name}`));
      }
    }
  });
}

test('readme-example: the fastest per bench, grouped by winner; the rest said once', () => {
  const { lines } = verdictLines(recorded('readme-example'));
  assert.equal(lines[0], 'mysql2 fastest: insert +22.4 % ±8.1, select_100_cols +87.1 % ±6.4, select_1_row_mixed +32.3 % ±3.7, '
    + 'select_collations +51.8 % ±4.8 over mysql; execute_metadata_changing (next mariadb -8.4 % ±2.8)');
  assert.match(lines[1], /^mariadb fastest: batch \+42\.6 % ±11\.1, pipelining \+77\.4 % ±5\.9, .* over mysql; execute \+14\.6 % ±5\.2, execute_metadata \+27\.3 % ±6\.1 over mysql2$/);
  // Two drivers ahead of mysql whose intervals overlap: neither is called the fastest.
  assert.match(lines[2], /^faster than mysql, no single fastest: do \(mysql2 \+18\.2 % ±5\.8, mariadb \+17\.1 % ±5\.2\), select_1000_rows/);
  assert.equal(lines[3], 'mysql2 slower than mysql: select_param -74.8 % ±2.4, select_random_alias -51.1 % ±2.1, pool_select_random_alias -33.8 % ±3.3');
  assert.match(lines.join('\n'), /mysql n\/a on execute, execute_metadata, execute_metadata_changing: no prepared statements in this driver/);
  assert.match(lines.join('\n'), /mysql: no TLS host-name check \(chain only: .*docs\/benches\.md\)/);
});

test('a tie is said as a tie, with its ~ Δ; no Δ without an interval is called either way', () => {
  const aa = verdictLines(recorded('aa-end-to-end')).lines.join('\n');
  assert.match(aa, /tied with mysql2 \(~: within the run's resolution of 2\.6 % or an interval across 0\): mysql2#aa on do \(~ -0\.9 % ±1\.6\), mysql2#aa on select_1000_rows \(~ -0\.9 % ±3\.3\)/);
  assert.doesNotMatch(aa, /fastest|faster|slower/);
  assert.doesNotMatch(aa, /TLS/, 'mysql2 checks the host name');
  const readme = verdictLines(recorded('readme-example')).lines.join('\n');
  assert.match(readme, /tied with mysql .*: mariadb on insert \(~ -7\.9 % ±14\.6\), mysql2 on batch \(~ \+6\.8 % ±11\.1\)/);
  const smoke = verdictLines(recorded('smoke-probes')).lines.join('\n');
  assert.match(smoke, /no Δ called on execute, stream_rows, transfer: too few rounds for an interval/);
  assert.doesNotMatch(smoke, /tied|fastest|faster/);
});

test('fastestOf: the reference when every other row is behind it; a row above every other interval; else none', () => {
  const row = (driver, deltaPct, deltaCI, deltaSignificant) => ({ driver, deltaPct, deltaCI, deltaSignificant });
  const ref = row('a', 0, null, null);
  assert.equal(fastestOf('a', [ref, row('b', -10, [-12, -8], true), row('c', -5, [-7, -3], true)], 2), 'a');
  assert.equal(fastestOf('a', [ref, row('b', -10, [-12, -8], true), row('c', -1, [-3, 1], false)], 2), null, 'c is tied with a');
  assert.equal(fastestOf('a', [ref, row('b', 20, [15, 25], true), row('c', 5, [-1, 11], false)], 2), 'b');
  assert.equal(fastestOf('a', [ref, row('b', 20, [15, 25], true), row('c', 12, [8, 16], true)], 2), null, 'overlapping intervals');
  assert.equal(fastestOf('a', [ref, row('b', 20, [15, 25], true), row('c', 12, [8, 14.9], true)], 10), null, 'a gap within the margin');
  assert.equal(fastestOf('a', [ref], 2), null);
  // Counts: + is more work, so ahead is below 0.
  const lower = { lower: true };
  assert.equal(fastestOf('a', [ref, row('b', 10, [9.9, 10.1], true), row('c', 5, [4.9, 5.1], true)], 0.1, lower), 'a');
  assert.equal(fastestOf('a', [ref, row('b', -20, [-20.1, -19.9], true), row('c', -12, [-12.1, -11.9], true)], 0.1, lower), 'b');
  assert.equal(fastestOf('a', [ref, row('b', -20, [-20.1, -19.9], true), row('c', -19.95, [-20.05, -19.85], true)], 0.1, lower), null, 'overlapping intervals');
  assert.equal(fastestOf('a', [ref, row('b', 20, [19.9, 20.1], true), row('c', 12, [11.9, 12.1], true)], 0.1, lower), 'a', 'both do more work');
});

test('a timed replay run says its speed is the client\'s alone', () => {
  assert.match(renderVerdictText(recorded('replay-client-cost')), /^VERDICT \(significant Δs only; \+ is faster than the bench's reference \(client side only: replayed, no server\)/);
  assert.doesNotMatch(renderVerdictText(recorded('readme-example')), /replayed/);
});

test('a count run says fewer or more instructions, + for more, never faster', () => {
  const text = renderVerdictText(recorded('count-instructions'));
  assert.match(text, /\+ is more instructions than the bench's reference/);
  assert.match(text, /mysql2 fewest instructions: do \(next slow-mysql2 \+0\.06 % ±0\.05\)/, 'slow-mysql2 needs more: +');
  assert.doesNotMatch(text, /fast|slow(?!-mysql2)|speed/);
  const cycles = verdictLines(recorded('calibrate-count-cycles')).lines;
  assert.match(cycles[0], /^mariadb fewest estimated cycles: do -45\.75 % ±0\.10, .* against mysql; execute -39\.22 % ±3\.50 against mysql2$/);
  assert.ok(cycles.includes('mariadb more estimated cycles than mysql: insert +23.10 % ±0.10'), cycles.join('\n'));
});

/** readme-example with do as a --rtt 0.2 run held in the driver processes would record it (docs/network.md's example). */
function withRtt() {
  const r = recorded('readme-example');
  r.settings.network = { rttMs: 0.2, via: 'process', holdMs: 0.0965 };
  const held = { mysql: [30, 227], mysql2: [27, 225], mariadb: [26, 224] };
  for (const row of r.benches.find((b) => b.name === 'do').results) {
    row.held = { holdMs: 0.0965, addedMs: 0.2, roundTripsPerOp: 1, loopbackP50Us: held[row.driver][0], heldP50Us: held[row.driver][1] };
  }
  return r;
}

test('--rtt: the round trip, and how far apart the drivers are on loopback and held', () => {
  const v = verdict(withRtt());
  assert.equal(v.network.rttMs, 0.2);
  assert.deepEqual(v.network.benches.map((b) => b.bench), ['do']);
  assert.ok(v.network.benches[0].heldApartPct < v.network.benches[0].loopbackApartPct);
  const text = renderVerdictText(withRtt());
  assert.match(text, /network: \+0\.2 ms round trip \(held in the driver processes\): every Δ here is at that round trip; .*do 26\.0–30\.0 µs \(15\.4 % apart\) → 224–227 µs \(1\.3 % apart\)/);
  const proxy = recorded('readme-example');
  proxy.settings.network = { rttMs: 1, via: 'proxy' };
  assert.match(renderVerdictText(proxy), /network: \+1 ms round trip \(through a proxy\): .*no loopback figures/);
  assert.doesNotMatch(renderVerdictText(recorded('readme-example')), /network/);
  // A row whose hold missed its round trip in the tuning (a --smoke run's, here): its bench is not compared.
  const missed = withRtt();
  missed.benches.find((b) => b.name === 'do').results[1].held.within = false;
  assert.deepEqual(verdict(missed).network.benches, []);
  assert.deepEqual(verdict(missed).network.untuned, ['do']);
  assert.match(renderVerdictText(missed), /round trip; do: a row's hold missed the round trip in its tuning, no comparison/);
  assert.doesNotMatch(renderVerdictText(missed), /µs/);
});

/**
 * readme-example with connect_tls and select_types as a run of them records them: the certificate
 * checks of benchs/connect.js, the representations of the smoke run in docs/history/2026-11-25-one-sitting.md.
 */
function withTlsAndTypes() {
  const r = recorded('readme-example');
  const checks = { mysql: 'chain only (mysql has no host-name check)', mysql2: 'chain and host name (ssl.verifyIdentity)', mariadb: 'chain and host name' };
  const types = {
    mysql: { DATETIME: 'Date', BIGINT: 'string', JSON: 'string', 'VARCHAR(255)': 'string' },
    mysql2: { DATETIME: 'Date', BIGINT: 'number/string', JSON: 'parsed JSON', 'VARCHAR(255)': 'string' },
    mariadb: { DATETIME: 'Date', BIGINT: 'BigInt', JSON: 'parsed JSON', 'VARCHAR(255)': 'string' },
  };
  const row = (driver, workload) => ({ driver, ok: true, status: 'ok', opsPerSec: 100, deltaPct: driver === 'mysql' ? 0 : null, workload });
  r.benches.push({ name: 'connect_tls', concurrency: 1, deltaReference: 'mysql', results: Object.keys(checks).map((d) => row(d, { certificateCheck: checks[d] })) });
  r.benches.push({ name: 'select_types', concurrency: 1, deltaReference: 'mysql', results: Object.keys(types).map((d) => row(d, { representations: types[d] })) });
  return r;
}

test('differences that are not speed: the TLS check the run recorded, and the types returned differently', () => {
  const v = verdict(withTlsAndTypes());
  assert.deepEqual(v.differences.filter((d) => d.kind === 'tls').map((d) => [d.drivers[0], d.source]), [['mysql', 'run']]);
  assert.deepEqual(v.differences.filter((d) => d.kind === 'types').map((d) => d.column), ['BIGINT', 'JSON']);
  const text = renderVerdictText(withTlsAndTypes());
  assert.match(text, /mysql: no TLS host-name check \(chain only: it accepts a certificate for another host from a trusted CA; as connect_tls recorded it in this run\)/);
  assert.match(text, /select_types returns types differently: BIGINT: mysql string, mysql2 number\/string, mariadb BigInt; JSON: mysql string, mysql2 and mariadb parsed JSON/);
});

test('the terminal, Markdown and HTML reports open with the verdict, before the first table', () => {
  for (const load of [() => recorded('readme-example'), withFailedRow, () => recorded('count-instructions')]) {
    const results = load();
    const { lines } = verdictLines(results);
    assert.ok(lines.length > 0);
    const text = renderRun(results);
    assert.ok(text.startsWith('VERDICT ('), 'the terminal report opens with it');
    assert.ok(text.indexOf(lines.at(-1)) < text.indexOf('┌'), 'before the first table');
    assert.equal(renderHistoryText(results), '', 'not a release history');
    assert.equal(text, renderVerdictText(results) + renderTable(results) + renderSections(results), 'then the report as before');
    const md = renderResultsMarkdown(results);
    assert.ok(md.indexOf('**Verdict**') > md.indexOf('### mysql-driver-bench'));
    assert.ok(md.indexOf('**Verdict**') < md.indexOf('```text'), 'before the forest plot');
    assert.ok(md.indexOf(lines.at(-1).slice(0, 30)) < md.indexOf('| bench |'), 'before the table');
    const html = renderResultsHtml(results);
    const at = html.indexOf('<section class="verdict"');
    assert.ok(at > html.indexOf('<h1>') && at < html.indexOf('<svg') && at < html.indexOf('<table'), 'after the title, before the charts and tables');
    assert.equal((html.match(/<section class="verdict"[\s\S]*?<\/section>/)[0].match(/<li>/g) ?? []).length, lines.length);
  }
});

test('a run with nothing to say opens with no verdict', () => {
  const r = recorded('aa-end-to-end');
  for (const b of r.benches) b.results = b.results.slice(0, 1);
  assert.equal(verdictLines(r).lines.length, 0);
  assert.equal(renderVerdictText(r), '');
  assert.doesNotMatch(renderResultsHtml(r), /class="verdict"/);
  assert.doesNotMatch(renderResultsMarkdown(r), /\*\*Verdict\*\*/);
});

test('a release history: its steps are the verdict, then its chart and table, then the rows (text, Markdown, HTML)', () => {
  const results = recorded('release-history-count');
  const { heading, lines, verdict: v } = verdictLines(results);
  assert.equal(heading, "release history: its steps, consecutive releases beyond the count's noise floor; + is more instructions");
  assert.deepEqual(lines, [
    'do: 3.23.5 → 3.24.0: 43,075 → 25,600 instructions/op, -40.6 %, better (1 step; 3.21.1 → 3.24.5: -40.6 % in all)',
    'select_100_cols: 3.21.1 → 3.22.0: 1,813,355 → 1,779,975 instructions/op, -1.8 %, better; 3.22.0 → 3.23.4: 1,779,975 → 1,888,263, +6.1 %, worse; '
      + '3.23.5 → 3.24.0: 1,888,700 → 1,232,848, -34.7 %, better; 3.24.0 → 3.24.5: 1,232,848 → 368,207, -70.1 %, better (4 steps; 3.21.1 → 3.24.5: -79.7 % in all)',
  ]);
  assert.ok(v.history && v.claims.length > 0, 'the claims against the first release are still made, and not said');
  assert.doesNotMatch(lines.join('\n'), /fewest|against mysql2@3\.21\.1|over mysql2@3\.21\.1/);
  const text = renderRun(results);
  const order = (s, marks) => marks.map((m) => s.indexOf(m)).every((at, i, all) => at >= 0 && (i === 0 || at > all[i - 1]));
  assert.ok(order(text, ['VERDICT (release history', 'Release history: mysql2, 6 releases', '1  3.23.5 → 3.24.0', '┌']), text);
  assert.equal(text, renderVerdictText(results) + renderHistoryText(results) + renderTable(results) + renderSections(results));
  const md = renderResultsMarkdown(results);
  assert.ok(order(md, ['**Verdict** (release history', '#### Release history', '| 1 | 3.23.5 → 3.24.0 |', '● Δ vs mysql2@3.21.1, + = more instructions', '| bench |']), md);
  const html = renderResultsHtml(results);
  assert.ok(order(html, ['<section class="verdict"', '<section class="history"', '<svg class="chart history"', '<svg class="forest"', '<section class="bench"']));
  // A step of more work reads + and worse.
  assert.match(html, /<li>select_100_cols: [^<]*3\.22\.0 → 3\.23\.4: 1,779,975 → 1,888,263, \+6\.1 %, worse;/);
});

test('a release history with no step and a timed one say so in their own sign', () => {
  const flat = recorded('release-history-count');
  flat.benches = flat.benches.filter((b) => b.name === 'do');
  for (const row of flat.benches[0].results) row.count.perOp = 43070 + (row.driver.endsWith('3.24.5') ? 10 : 0);
  assert.deepEqual(verdictLines(flat).lines, ["do: no step (3.21.1 → 3.24.5: +0.02 % in all): each release within the count's noise floor (±0.05 %) of the one before"]);
  const timed = {
    drivers: ['3.0.0', '3.1.0', '3.2.0'].map((v) => ({ name: `mysql2@${v}`, package: 'mysql2', version: v })),
    settings: { baseline: 'mysql2@3.0.0' },
    benches: [{ name: 'do', deltaReference: 'mysql2@3.0.0', results: [
      { driver: 'mysql2@3.0.0', ok: true, status: 'ok', opsPerSec: 30000, deltaPct: 0, deltaCI: null },
      { driver: 'mysql2@3.1.0', ok: true, status: 'ok', opsPerSec: 30300, deltaPct: 1, deltaCI: [-1.5, 3.5], deltaSignificant: false },
      { driver: 'mysql2@3.2.0', ok: true, status: 'ok', opsPerSec: 36000, deltaPct: 20, deltaCI: [17, 23], deltaSignificant: true },
    ] }],
  };
  const t = verdictLines(timed);
  assert.match(t.heading, /paired Δ intervals do not overlap; \+ is faster \(ops\/s\)$/);
  assert.deepEqual(t.lines, ['do: 3.1.0 → 3.2.0: 30,300 → 36,000 ops/s, +18.8 %, better (1 step; 3.0.0 → 3.2.0: +20.0 % in all)']);
});
