// HTML and Markdown reports of a run and of a comparison. Fixtures are synthetic results objects.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderResultsHtml, renderComparisonHtml } from '../../lib/reporting/html.js';
import { esc, niceStep } from '../../lib/reporting/svg.js';
import { renderResultsMarkdown, renderComparisonMarkdown, mdCell } from '../../lib/reporting/markdown.js';
import { compareResults } from '../../lib/results/compare.js';
import { createResults, serialize } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';
import { describeBudgetStop, describeBudgetStops } from '../../lib/reporting/format.js';
import { main } from '../../lib/cli/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-render-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function fixture() {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', arch: 'x64', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: '10.11.0-MariaDB', kind: 'mariadb', embedded: true, blackhole: true, bulk: true },
    drivers: [{ name: 'mysql', version: '2.18.1', via: 'promise-mysql@5.2.0' }, { name: 'mysql2@3.9.0', version: '3.9.0' }, { name: 'mysql2', version: '3.24.0' }, { name: 'mariadb', version: '3.5.0' }],
    settings: { baseline: 'mysql', concurrency: 1, time: 3, warmup: 1, rounds: 3, mode: 'default', wake: 'spin:1' },
  });
  const ok = (driver, opsPerSec, protocol = 'text') => ({
    driver, protocol, ok: true, status: 'ok', error: null, opsPerSec, rme: 2.5, samples: 20,
    sampleOpsPerSec: Array.from({ length: 20 }, (_, i) => opsPerSec * (1 + ((i % 5) - 2) / 100)),
    latency: { p50: 80, p90: 90, p99: 150, max: 900 },
    rounds: Array.from({ length: 12 }, (_, i) => ({ round: i, opsPerSec: opsPerSec * (1 + ((i % 3) - 1) / 100) })),
    cost: { clientCpuUsPerOp: 31.5, gcMsPer1000Ops: 0.25, serverCpuUsPerOp: 22 },
  });
  r.benches.push({ name: 'do', title: 'DO with a random number', sql: 'DO ?', results: [ok('mysql2', 1200), ok('mysql', 1000), ok('mysql2@3.9.0', 1100), ok('mariadb', 900)] });
  r.benches.push({ name: 'insert', title: 'INSERT of 10 parameters', sql: 'INSERT INTO t VALUES (?)', results: [ok('mysql', 700), ok('mysql2', 720), ok('mysql2@3.9.0', 710), ok('mariadb', 650)] });
  r.benches.push({
    name: 'execute', title: 'prepared | statement', sql: 'SELECT * FROM t WHERE a < ?', results: [
      { driver: 'mysql', protocol: 'n/a', ok: false, status: 'n/a', error: 'not supported by driver: no prepared statements' },
      ok('mysql2', 500, 'binary'),
      ok('mysql2@3.9.0', 480, 'binary'),
      { driver: 'mariadb', protocol: 'binary', ok: false, status: 'failed', error: 'column i3: expected 3, got <b>4</b>' },
    ],
  });
  r.complete = true;
  return applyDeltas(r);
}

/** Nothing a browser would fetch: no URL, no external reference of any kind. */
function assertSelfContained(html) {
  assert.doesNotMatch(html, /https?:/i, 'no http(s) URL');
  assert.doesNotMatch(html, /\/\/[a-z0-9.-]+\.[a-z]{2,}/i, 'no protocol-relative URL');
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|<object|<embed|@import|url\(|\bsrc=|\bhref=/i);
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<style>/);
}

const charts = (html) => html.match(/<svg class="chart"/g) ?? [];

test('the HTML report is self-contained and has one chart per bench', () => {
  const r = fixture();
  const html = renderResultsHtml(r);
  assertSelfContained(html);
  assert.equal(charts(html).length, r.benches.length);
  for (const b of r.benches) {
    const section = html.slice(html.indexOf(`<section class="bench" id="bench-${b.name}">`));
    assert.match(section.slice(0, section.indexOf('</section>')), /<svg class="chart" role="img" aria-label="[^"]+"/);
  }
});

test('the charts show every driver, error bars, the baseline and rows that did not run', () => {
  const html = renderResultsHtml(fixture());
  const doChart = html.slice(html.indexOf('<svg', html.indexOf('id="bench-do"')), html.indexOf('</svg>', html.indexOf('id="bench-do"')));
  for (const d of ['mysql', 'mysql2', 'mysql2@3.9.0', 'mariadb']) assert.match(doChart, new RegExp(`>${d.replace('.', '\\.')}</text>`));
  assert.equal((doChart.match(/<rect [^>]*><title>/g) ?? []).length, 4); // one bar per driver
  assert.equal((doChart.match(/<g stroke="#111" stroke-width="1.6">/g) ?? []).length, 4); // one error bar per driver
  assert.match(doChart, /stroke-dasharray="5 4"/); // the baseline's line
  assert.match(doChart, /text · baseline/);
  assert.match(doChart, /1,000 ± 2\.5 % · baseline/);
  assert.match(doChart, /1,200 ± 2\.5 % · \+20\.0 % ±0\.0/);
  const exec = html.slice(html.indexOf('id="bench-execute"'));
  assert.match(exec, /n\/a: not supported by driver: no prepared statements/);
  assert.match(exec, /FAILED: column i3: expected 3, got &lt;b&gt;4&lt;\/b&gt;/);
  assert.doesNotMatch(html, /<b>4<\/b>/);
});

test('the HTML report carries the environment', () => {
  const html = renderResultsHtml(fixture());
  for (const s of ['MariaDB 10.11.0-MariaDB (embedded)', 'v20.0.0', '2 × Test CPU', 'mysql 2.18.1 (via promise-mysql@5.2.0)', 'mysql2@3.9.0 3.9.0', 'wake spin:1', '3 rounds']) {
    assert.ok(html.includes(esc(s)), s);
  }
  const incomplete = { ...fixture(), complete: false, stoppedBy: 'interrupted by SIGINT' };
  assert.match(renderResultsHtml(incomplete), /Incomplete run: interrupted by SIGINT/);
});

test('the comparison page: self-contained, one chart per bench compared, base and new bars', () => {
  const base = fixture();
  const next = structuredClone(base);
  for (const b of next.benches) for (const r of b.results) if (r.driver === 'mysql2' && r.ok) { r.opsPerSec *= 0.8; r.sampleOpsPerSec = r.sampleOpsPerSec.map((x) => x * 0.8); r.rounds = r.rounds.map((x) => ({ ...x, opsPerSec: x.opsPerSec * 0.8 })); }
  next.server.version = '10.6.0-MariaDB';
  const c = compareResults(base, next, { threshold: 10 });
  const html = renderComparisonHtml(c);
  assertSelfContained(html);
  assert.equal(charts(html).length, 3);
  assert.match(html, /warning: server version differs/);
  assert.match(html, /Regression \(threshold 10 %\): do · mysql2 -20\.0 %/);
  assert.match(html, /base 1,200 ± 2\.5 %/);
  assert.match(html, /new 960 ± 2\.5 %/);
  assert.match(html, /Geometric mean per driver/);
  assert.match(html, /not compared: execute · mariadb: failed in base, failed in new/);
});

test('the Markdown summary: one table row per bench and driver, notes, environment', () => {
  const md = renderResultsMarkdown(fixture());
  assert.match(md, /^### mysql-driver-bench results\n/);
  assert.match(md, /^\| bench \| driver \| protocol \| ops\/s \| ± rme \| samples \| p50 µs \| p99 µs \| cpu µs\/op \| gc ms\/1k \| server µs\/op \| Δ vs mysql \|$/m);
  assert.match(md, /^\| do \| mysql \| text \| 1,000 \| 2\.5 % \| 20 \| 80\.0 \| 150 \| 31\.5 \| 0\.25 \| 22\.0 \| baseline \|$/m);
  assert.match(md, /^\|  \| mysql2@3\.9\.0 \| text \| 1,100 \| 2\.5 % \| 20 \| 80\.0 \| 150 \| 31\.5 \| 0\.25 \| 22\.0 \| \+10\.0 % ±0\.0 \|$/m);
  assert.match(md, /- execute: Δ against mysql2@3\.9\.0 \(mysql: no prepared statements\)/);
  assert.match(md, /^\|  \| mariadb \| binary \| FAILED \|/m);
  assert.match(md, /- execute · mariadb: FAILED: column i3: expected 3, got &lt;b&gt;4&lt;\/b&gt;/);
  assert.match(md, /- \*\*server\*\*: MariaDB 10\.11\.0-MariaDB \(embedded\)/);
  assert.equal(md.match(/^\| (do|insert|execute|) \|/gm).length, 12);
  assert.doesNotMatch(md, /https?:/);
  assert.equal(mdCell('a | b\nc'), 'a \\| b c');
});

test('the comparison in Markdown', () => {
  const base = fixture();
  const c = compareResults(base, base, { threshold: 5 });
  const md = renderComparisonMarkdown(c);
  assert.match(md, /No significant regression larger than 5 %\./);
  assert.match(md, /^\| bench \| driver \| base ops\/s \| new ops\/s \| ops\/s Δ \| base → new \| Δ vs mysql \| note \|$/m);
  assert.match(md, /^\| do \| mysql \| 1,000 \| 1,000 \| 0\.0 % \|  \| anchor \|  \|$/m);
  assert.match(md, /^Δ vs mysql: the change between the runs of the row's paired Δ against mysql/m);
  assert.match(md, /^\| \*\*geomean\*\* \| mysql \| /m);
});

test('axis steps are round numbers', () => {
  assert.equal(niceStep(1000), 200);
  assert.equal(niceStep(13000), 5000);
  assert.equal(niceStep(12), 2.5);
  assert.equal(niceStep(0), 1);
});

// --- the command -------------------------------------------------------------------------------

function sink() {
  let text = '';
  return { write: (s) => { text += s; return true; }, get text() { return text; }, isTTY: false };
}

test('report: --html writes the page, --markdown prints the summary, the table by default', async () => {
  const file = join(dir, 'run.json');
  writeFileSync(file, serialize(fixture()));
  const html = join(dir, 'run.html');
  let out = sink(); let err = sink();
  assert.equal(await main(['report', file, '--html', html], { stdout: out, stderr: err }), 0);
  assert.equal(charts(readFileSync(html, 'utf8')).length, 3);
  assert.equal(out.text, '');
  assert.match(err.text, /^HTML written to .*run\.html\n$/);

  out = sink(); err = sink();
  assert.equal(await main(['report', file, '--markdown', '-q'], { stdout: out, stderr: err }), 0);
  assert.match(out.text, /^### mysql-driver-bench results/);
  assert.equal(err.text, '');

  out = sink(); err = sink();
  assert.equal(await main(['report', file], { stdout: out, stderr: err }), 0);
  assert.match(out.text, /│ mysql\s+│ text\s+│\s+1,000 │/);
  // What the run printed: the one entry point that renders a run, sections included.
  const { renderRun } = await import('../../lib/reporting/sections.js');
  assert.equal(out.text, renderRun(JSON.parse(serialize(fixture()))));
  out = sink();
  assert.equal(await main(['report', file, '--latency'], { stdout: out, stderr: sink() }), 0);
  assert.match(out.text, /cpu µs\/op/);

  out = sink(); err = sink();
  assert.equal(await main(['report', join(dir, 'nope.json')], { stdout: out, stderr: err }), 2);
  assert.match(err.text, /^mysql-driver-bench: error: cannot read results file .*nope\.json': no such file\n$/);
  assert.equal(await main(['report', file, '--html', join(dir, 'no-such-dir', 'x.html')], { stdout: sink(), stderr: err }), 2);
  assert.match(err.text, /cannot write --html output to/);
});

test('report --svg: the forest plot alone, to a file or stdout; a run with no Δ is refused in one line', async () => {
  const file = join(dir, 'svg-run.json');
  writeFileSync(file, serialize(fixture()));
  const svgFile = join(dir, 'forest.svg');
  let out = sink(); let err = sink();
  assert.equal(await main(['report', file, '--svg', svgFile], { stdout: out, stderr: err }), 0);
  const svg = readFileSync(svgFile, 'utf8');
  assert.match(svg, /^<\?xml [^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok((svg.match(/<circle class="forest-point /g) ?? []).length > 0);
  assert.equal(out.text, '');
  assert.match(err.text, /^SVG written to .*forest\.svg\n$/);
  out = sink(); err = sink();
  assert.equal(await main(['report', file, '--svg', '-', '-q'], { stdout: out, stderr: err }), 0);
  assert.equal(out.text, svg);
  assert.equal(err.text, '');
  // One driver: nothing to draw.
  const single = JSON.parse(serialize(fixture()));
  single.drivers = single.drivers.slice(0, 1);
  for (const b of single.benches) b.results = b.results.filter((r) => r.driver === 'mysql');
  const one = join(dir, 'one-driver.json');
  writeFileSync(one, JSON.stringify(single));
  out = sink(); err = sink();
  assert.equal(await main(['report', one, '--svg', join(dir, 'none.svg')], { stdout: out, stderr: err }), 2);
  assert.match(err.text, /^mysql-driver-bench: error: .*one-driver\.json has no paired Δ to draw — the forest plot needs .*\n$/);
  assert.equal(existsSync(join(dir, 'none.svg')), false);
});

test('benches whose time budget ended their rounds early: one line in the text table, a note per bench elsewhere', () => {
  const benches = [{ name: 'do' }, { name: 'insert', budgetStop: { rounds: 100, of: 120, budgetS: 3.8 } }, { name: 'transfer', budgetStop: { rounds: 60, of: 120, budgetS: 3.8 } }];
  assert.equal(describeBudgetStops(benches), 'rounds: the time budget (3.8 s per driver and bench) ended insert after 100, transfer after 60 of 120');
  assert.equal(describeBudgetStops([{ name: 'do' }]), null);
  assert.equal(describeBudgetStop(benches[1]), "100 of 120 rounds: the bench's time budget (3.8 s per driver) ran out");
  assert.equal(describeBudgetStop(benches[0]), null);
});
