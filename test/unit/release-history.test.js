// The release history (results/history.js, reporting/history.js): which runs get one, the steps
// between consecutive releases (a count's noise floor; a timed run's paired Δ intervals), and the
// terminal, Markdown and HTML renderers, on hand-made results objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyRows, releaseHistory } from '../../lib/results/history.js';
import { historyChart, renderHistoryHtml, renderHistoryMarkdown, renderHistoryText } from '../../lib/reporting/history.js';
import { renderRun } from '../../lib/reporting/sections.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';
import { renderVerdictText } from '../../lib/reporting/verdict-text.js';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../lib/results/file.js';

const release = (version, pkg = 'mysql2') => ({ name: `${pkg}@${version}`, package: pkg, version, source: `${pkg}@${version}`, options: {} });

/** A --count run of mysql2 releases: per bench, instructions/op per release (null: the row failed). */
function countResults(perBench, { versions = Object.keys(Object.values(perBench)[0]), ranges = true, floor = 0.05, benchFloorsPct } = {}) {
  return {
    drivers: versions.map((v) => release(v)),
    settings: {
      baseline: `mysql2@${versions[0]}`, drivers: versions.map((v) => `mysql2@${v}`),
      ...(ranges ? { releaseRanges: [{ spec: `mysql2@${versions[0]}..${versions.at(-1)}:last-of-minor`, releases: versions }] } : {}),
      count: { what: 'instructions', noiseFloorPct: floor, ...(benchFloorsPct ? { benchFloorsPct } : {}) },
    },
    benches: Object.entries(perBench).map(([name, figures]) => ({
      name, title: name, sql: 'DO ?', deltaReference: `mysql2@${versions[0]}`,
      results: versions.map((v) => (figures[v] === null
        ? { driver: `mysql2@${v}`, ok: false, status: 'failed', error: 'boom' }
        : { driver: `mysql2@${v}`, protocol: 'text', ok: true, status: 'ok', count: { what: 'instructions', perOp: figures[v], ops: 49152, spreadPct: 0.02 }, deltaPct: 0 })),
    })),
  };
}

// The figures of issue 53 (counted 2026-11-26), with a release within the floor of the one before.
const SELECT_100 = { '3.21.1': 1813355, '3.22.0': 1779975, '3.23.4': 1888263, '3.23.5': 1888700, '3.24.0': 1232848, '3.24.5': 368207 };
const DO = { '3.21.1': 43066, '3.22.0': 43070, '3.23.4': 43080, '3.23.5': 43075, '3.24.0': 25600, '3.24.5': 25590 };

test('historyRows: a range given, or at least three releases of one package in ascending order', () => {
  assert.equal(historyRows(countResults({ do: DO })).drivers.length, 6);
  assert.equal(historyRows(countResults({ do: DO }, { ranges: false })).package, 'mysql2');
  const two = countResults({ do: { '3.9.0': 1, '3.10.0': 2 } }, { ranges: false });
  assert.equal(historyRows(two), null, 'two releases are the main table\'s Δ already');
  assert.ok(historyRows(countResults({ do: { '3.9.0': 1, '3.10.0': 2 } })), 'but a range of two is a history');
  const unordered = countResults({ do: { '3.10.0': 1, '3.9.0': 2, '3.11.0': 3 } }, { ranges: false });
  assert.equal(historyRows(unordered), null, 'listed out of order: not a history');
  const mixed = countResults({ do: DO }, { ranges: false });
  mixed.drivers.push({ name: 'mariadb', package: 'mariadb', version: '3.5.4' });
  assert.equal(historyRows(mixed), null, 'another driver among the rows: not a history');
  mixed.settings.releaseRanges = [{ spec: 'mysql2@3.21.1..3.24.5', releases: Object.keys(DO) }];
  assert.deepEqual(historyRows(mixed).drivers.map((d) => d.version), Object.keys(DO), 'with a range, its releases only');
  const variant = countResults({ do: DO }, { ranges: false });
  variant.drivers[1] = { ...variant.drivers[1], name: 'mysql2@3.22.0:disableEval=true' };
  assert.equal(historyRows(variant), null, 'a variant is not a plain release');
});

test('count steps: consecutive releases beyond the noise floor, with their size; the bench\'s own floor', () => {
  const h = releaseHistory(countResults({ do: DO, select_100_cols: SELECT_100 }));
  const s100 = h.benches.find((b) => b.bench === 'select_100_cols');
  assert.deepEqual(s100.steps.map((s) => `${s.from}→${s.to}`), ['3.21.1→3.22.0', '3.22.0→3.23.4', '3.23.5→3.24.0', '3.24.0→3.24.5']);
  const drop = s100.steps.find((s) => s.to === '3.24.0');
  assert.equal(Math.round(drop.changePct * 10) / 10, -34.7);
  assert.equal(drop.better, true);
  assert.equal(s100.steps.find((s) => s.to === '3.23.4').better, false);
  assert.equal(Math.round(s100.total.changePct), -80);
  const doH = h.benches.find((b) => b.bench === 'do');
  // 43,066 → 43,070 is 0.009 %, within the 0.05 % floor; 43,080 → 43,075 too; 25,600 → 25,590 is 0.04 %.
  assert.deepEqual(doH.steps.map((s) => s.to), ['3.24.0']);
  // A bench's own wider floor (settings.count.benchFloorsPct) is the one it is judged by.
  const wide = releaseHistory(countResults({ do: DO, select_100_cols: SELECT_100 }, { benchFloorsPct: { select_100_cols: 5 } }));
  // 1,813,355 → 1,779,975 (−1.8 %) is within 5 %; 1,779,975 → 1,888,263 (+6.1 %) is not.
  assert.deepEqual(wide.benches.find((b) => b.bench === 'select_100_cols').steps.map((s) => s.to), ['3.23.4', '3.24.0', '3.24.5']);
  assert.equal(wide.benches.find((b) => b.bench === 'select_100_cols').floorPct, 5);
});

test('a release that was not measured is a gap; the step joins the releases on either side', () => {
  const h = releaseHistory(countResults({ do: { ...DO, '3.24.0': null } })).benches[0];
  assert.deepEqual(h.steps.map((s) => `${s.from}→${s.to}`), ['3.23.5→3.24.5']);
  assert.match(renderHistoryText(countResults({ do: { ...DO, '3.24.0': null } })), /not measured: 3\.24\.0 \(failed\)/);
});

/** A timed run of releases: per release its ops/s and its paired Δ interval against the first. */
function timedResults(rows) {
  const versions = rows.map((r) => r[0]);
  return {
    drivers: versions.map((v) => release(v)),
    settings: { baseline: `mysql2@${versions[0]}`, drivers: versions.map((v) => `mysql2@${v}`) },
    benches: [{
      name: 'do', deltaReference: `mysql2@${versions[0]}`,
      results: rows.map(([v, ops, deltaPct, ci], i) => ({ driver: `mysql2@${v}`, ok: true, status: 'ok', opsPerSec: ops, rme: 1, deltaPct: i === 0 ? 0 : deltaPct, deltaCI: i === 0 ? null : ci })),
    }],
  };
}

test('timed steps: the paired Δ intervals of two consecutive releases do not overlap; size from the paired Δs', () => {
  const r = timedResults([
    ['3.0.0', 30000, 0, null],
    ['3.1.0', 30300, 1, [-1.5, 3.5]], // overlaps the reference's 0: no step
    ['3.2.0', 36000, 20, [17, 23]], // beyond: a step up
    ['3.3.0', 35500, 18.5, [16, 21]], // overlaps 3.2.0's: no step
    ['3.4.0', 30000, 0.5, null], // no interval: not judged
  ]);
  const h = releaseHistory(r).benches[0];
  assert.deepEqual(h.steps.map((s) => `${s.from}→${s.to}`), ['3.1.0→3.2.0']);
  assert.equal(Math.round(h.steps[0].changePct * 10) / 10, 18.8); // 1.20 / 1.01 − 1
  assert.equal(h.steps[0].better, true);
  assert.equal(h.unjudged, 1);
  assert.match(renderHistoryText(r), /1 pair of releases had no interval to judge/);
  assert.match(renderHistoryText(r), /paired Δ intervals do not overlap/);
});

test('the text chart: a column per release between the lowest and highest figure, steps numbered under it', () => {
  const h = releaseHistory(countResults({ select_100_cols: SELECT_100 })).benches[0];
  const chart = historyChart(h, { height: 4 });
  const lines = chart.split('\n');
  assert.equal(lines.length, 4 + 3);
  assert.match(lines[0], /^ {2}1,888,700 ┤/);
  assert.match(lines[3], /^ {4}368,207 ┤/);
  assert.match(lines[3], /●$/, 'the last release is the lowest');
  assert.equal(lines[5].trim(), '1  2     3  4');
  assert.match(lines[6], /3\.21\.1 … 3\.24\.5 \(6 releases\)/);
});

test('renderers: terminal, Markdown and HTML carry the chart and the steps; nothing for a run that is not a history', () => {
  const r = countResults({ do: DO, select_100_cols: SELECT_100 });
  const text = renderHistoryText(r);
  assert.match(text, /^Release history: mysql2@3\.21\.1\.\.3\.24\.5:last-of-minor\n/);
  assert.match(text, /a step: a change beyond the count's noise floor of ±0\.05 %; change: the later release's instructions\/op ÷ the earlier's − 1 \(\+ is more work\)\.\n\n$/);
  assert.match(text, /select_100_cols · instructions\/op \(fewer is better\) · 3\.21\.1 → 3\.24\.5: -79\.7 %, 4 steps/);
  assert.match(text, /3 {2}3\.23\.5 → 3\.24\.0 {2}1,888,700 → 1,232,848 {2}-34\.7 % {2}better/);
  assert.match(text, /a step: a change beyond the count's noise floor of ±0\.05 %/);
  const md = renderHistoryMarkdown(r);
  assert.match(md, /^#### Release history: /);
  assert.match(md, /```text\n/);
  assert.match(md, /\| 3 \| 3\.23\.5 → 3\.24\.0 \| 1,888,700 → 1,232,848 \| -34\.7 % \| better \|/);
  const html = renderHistoryHtml(r);
  assert.match(html, /<section class="history" id="release-history">/);
  assert.equal((html.match(/<svg class="chart history"/g) ?? []).length, 2);
  assert.match(html, /<title>3\.24\.0: 1,232,848 instructions\/op · step 3: -34\.7 % from 3\.23\.5<\/title>/);
  assert.match(html, /<path d="M80\.0 [\d.]+ H/);
  assert.ok(!/<script|https?:\/\/(?!www\.w3\.org)/.test(html), 'inline SVG only');
  // Wired into the run's report in all three forms: a recorded count run whose two rows are made releases of a range.
  const run = readResults(fileURLToPath(new URL('../fixtures/results/count-instructions.json', import.meta.url)));
  const names = { mysql2: 'mysql2@3.24.0', 'slow-mysql2': 'mysql2@3.24.5' };
  run.drivers = run.drivers.map((d) => ({ ...d, name: names[d.name], version: names[d.name].split('@')[1] }));
  for (const b of run.benches) for (const row of b.results) row.driver = names[row.driver];
  run.settings.baseline = 'mysql2@3.24.0';
  run.settings.releaseRanges = [{ spec: 'mysql2@3.24.0..3.24.5:minor', releases: ['3.24.0', '3.24.5'] }];
  const runText = renderHistoryText(run);
  assert.match(runText, /Release history: mysql2@3\.24\.0\.\.3\.24\.5:minor/);
  assert.ok(renderRun(run).startsWith(renderVerdictText(run) + runText), 'right after the verdict its steps make');
  assert.ok(renderResultsMarkdown(run).includes(renderHistoryMarkdown(run)));
  assert.ok(renderResultsHtml(run).includes(renderHistoryHtml(run)));
  // Its other charts draw every release in one colour: green and orange are the step chart's better and worse.
  const fills = (html) => new Set([...html.replace(renderHistoryHtml(run), '').matchAll(/<(?:circle|rect)[^>]*fill="(#[0-9A-F]{6})"/g)].map((m) => m[1]));
  assert.equal(fills(renderResultsHtml(run)).size, 1);
  const notARange = { ...run, settings: { ...run.settings, releaseRanges: undefined } };
  assert.equal(renderHistoryHtml(notARange), '', 'two releases with no range are not a history');
  assert.equal(fills(renderResultsHtml(notARange)).size, 2);
  const notHistory = countResults({ do: { '3.9.0': 1, '3.10.0': 2 } }, { ranges: false });
  assert.equal(renderHistoryText(notHistory), '');
  assert.equal(renderHistoryMarkdown(notHistory), '');
  assert.equal(renderHistoryHtml(notHistory), '');
});
