// The first picture (issue 35): the forest plot that opens the HTML report, and its text form in the
// Markdown report, rendered from real results files. Pure: no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../lib/results/file.js';
import { CLAMP_PCT, forestData, forestScale, forestSvg, forestSvgFile, forestTextLines } from '../../lib/reporting/forest.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';

const fixture = (name) => readResults(fileURLToPath(new URL(`../fixtures/results/${name}.json`, import.meta.url)));
const FILES = ['aa-end-to-end', 'replay-client-cost', 'count-instructions', 'readme-example'];

/** The rows the plot must draw: a numeric Δ, measured, and not its bench's reference. */
function deltaRows(results) {
  return results.benches.flatMap((b) => b.results
    .filter((r) => r.ok && Number.isFinite(r.deltaPct) && r.driver !== (b.deltaReference ?? results.settings.baseline))
    .map((r) => ({ bench: b.name, row: r })));
}

/** A bench whose Δs are against another driver than the baseline says so in its labels. */
const labelTail = (results, bench) => {
  const ref = results.benches.find((b) => b.name === bench).deltaReference;
  return ref && ref !== results.settings.baseline ? ` vs ${ref}` : '';
};

const forestOf = (html) => {
  const at = html.indexOf('<svg class="forest"');
  return at < 0 ? '' : html.slice(at, html.indexOf('</svg>', at) + 6);
};
const count = (text, re) => (text.match(re) ?? []).length;
const mdBlock = (md) => md.match(/```text\n([\s\S]*?)\n```/)?.[1].split('\n') ?? null;

for (const name of FILES) {
  test(`the HTML report opens with the forest plot: one mark per Δ (${name})`, () => {
    const results = fixture(name);
    const expected = deltaRows(results);
    assert.ok(expected.length > 0, 'the fixture has Δs');
    const html = renderResultsHtml(results);
    const svg = forestOf(html);
    assert.ok(svg, 'a forest plot');
    // It opens the page: before the environment and the first bench's section.
    assert.ok(html.indexOf(svg) < html.indexOf('<dl class="env">'));
    assert.ok(html.indexOf(svg) < html.indexOf('<section class="bench"'));
    assert.equal(count(svg, /<circle class="forest-point /g), expected.length);
    for (const { bench, row } of expected) assert.ok(svg.includes(`>${bench} · ${row.driver}${labelTail(results, bench)}</text>`), `${bench} · ${row.driver}`);
    // `~` rows grey and hollow, the others filled.
    const ns = expected.filter(({ row }) => !row.deltaSignificant).length;
    assert.equal(count(svg, /<circle class="forest-point forest-ns"[^>]*fill="#fff"/g), ns);
    assert.equal(count(svg, /<circle class="forest-point forest-sig"/g), expected.length - ns);
    assert.equal(count(svg, /<g class="forest-row forest-ns">/g), ns);
    // A whisker per interval, the line at 0, and the band: the resolution, or the count's noise floor.
    assert.equal(count(svg, /class="forest-whisker"/g), expected.filter(({ row }) => row.deltaCI).length);
    assert.match(svg, /class="forest-zero"/);
    const band = results.settings.count ? results.settings.count.noiseFloorPct : results.resolution?.pct;
    assert.ok(band > 0);
    assert.equal(count(svg, /<rect class="forest-band"/g), 1);
    assert.ok(svg.includes(`±${band} %`));
    // Self-contained, and not counted among the per-bench charts.
    assert.doesNotMatch(svg, /https?:|<script|href=/);
    assert.equal(count(html, /<svg class="chart"/g), results.benches.length);
  });

  test(`the Markdown report: one text line per Δ, after the heading and before the table (${name})`, () => {
    const results = fixture(name);
    const expected = deltaRows(results);
    const md = renderResultsMarkdown(results);
    const lines = mdBlock(md);
    assert.ok(lines, 'a fenced text block');
    assert.ok(md.indexOf('```text') > md.indexOf('### mysql-driver-bench'));
    assert.ok(md.indexOf('```text') < md.indexOf('| bench |'));
    // An axis line, one line per Δ, a legend.
    assert.equal(lines.length, expected.length + 2);
    const marks = lines.slice(1, -1);
    for (const [i, { bench, row }] of expected.entries()) {
      assert.ok(marks[i].startsWith(`${bench} · ${row.driver}`), marks[i]);
      assert.equal(count(marks[i], /[●○]/g), 1, marks[i]);
      assert.ok(marks[i].includes(row.deltaSignificant ? '●' : '○'), marks[i]);
      assert.equal(marks[i].includes('~'), !row.deltaSignificant, marks[i]);
    }
    assert.match(lines.at(-1), results.settings.count ? /\+ = more instructions/ : /\+ = faster/);
    assert.ok(lines.every((l) => l.length <= 130), 'short lines');
  });
}

test('the aa fixture: both Δs are ~, the band is the run\'s resolution', () => {
  const results = fixture('aa-end-to-end');
  const svg = forestOf(renderResultsHtml(results));
  assert.equal(count(svg, /forest-point forest-sig/g), 0);
  assert.match(svg, /the run&#39;s resolution, ±2\.6 %/);
  assert.match(mdBlock(renderResultsMarkdown(results)).at(-1), /resolution ±2\.6 %/);
});

test('an instruction count: + means more instructions, the band is the count\'s noise floor', () => {
  const results = fixture('count-instructions');
  const svg = forestOf(renderResultsHtml(results));
  assert.match(svg, /more instructions →/);
  assert.match(svg, /← fewer instructions than mysql2/);
  // slow-mysql2 needs more instructions than mysql2: its point is right of 0.
  const [slow] = forestData(results).items;
  assert.deepEqual([slow.driver, slow.deltaPct > 0, slow.text], ['slow-mysql2', true, '+0.06 % ±0.05']);
  assert.match(svg, /noise floor, ±0\.05 %/);
  const md = renderResultsMarkdown(results);
  assert.doesNotMatch(md, /ops\/s/);
  assert.match(mdBlock(md).at(-1), /noise floor ±0\.05 %/);
});

test('the axis covers every interval, and cuts absurd ones at the edge with an arrow', () => {
  const results = fixture('replay-client-cost');
  const { items, band } = forestData(results);
  const scale = forestScale(items, band);
  for (const i of items) assert.ok(scale.lo <= i.ci[0] && i.ci[1] <= scale.hi, JSON.stringify({ i, scale }));
  assert.equal(scale.cut, false);
  // One interval stretched to +900 %: the axis stops at the cut, the whisker ends in an arrow, a note says so.
  const wide = structuredClone(results);
  const row = wide.benches[0].results.find((r) => r.deltaCI);
  row.deltaPct = 350;
  row.deltaCI = [120, 900];
  const cut = forestScale(forestData(wide).items, band);
  assert.equal(cut.hi, CLAMP_PCT);
  assert.equal(cut.cut, true);
  const svg = forestSvg(wide);
  assert.equal(count(svg, /<polyline /g), 1);
  assert.match(svg, /interval cut at the axis/);
  assert.match(forestTextLines(wide).find((l) => l.startsWith(`${wide.benches[0].name} · ${row.driver}`)), /\]|>/);
  assert.match(forestTextLines(wide).at(-1), /cut at ±200 %/);
});

test('no Δ, no picture; a Δ without an interval is a point alone', () => {
  const results = fixture('aa-end-to-end');
  const none = structuredClone(results);
  for (const b of none.benches) b.results = b.results.filter((r) => r.driver === results.settings.baseline);
  assert.equal(forestSvg(none), '');
  assert.deepEqual(forestTextLines(none), []);
  assert.doesNotMatch(renderResultsHtml(none), /class="forest"/);
  assert.doesNotMatch(renderResultsMarkdown(none), /```text/);
  const bare = structuredClone(results);
  for (const b of bare.benches) for (const r of b.results) if (r.deltaCI) { r.deltaCI = null; r.deltaSignificant = null; }
  const svg = forestSvg(bare);
  assert.equal(count(svg, /<circle class="forest-point forest-ns"/g), deltaRows(bare).length);
  assert.equal(count(svg, /forest-whisker/g), 0);
});

test('as a file of its own (report --svg): the same marks, with the namespace and the drivers\' colours of the page', () => {
  const results = fixture('replay-client-cost');
  const file = forestSvgFile(results);
  assert.match(file, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" font-family="[^"]+" class="forest"/);
  assert.ok(file.endsWith('</svg>\n'));
  assert.equal(count(file, /<circle class="forest-point /g), deltaRows(results).length);
  // A significant point takes its driver's colour in the HTML page.
  const fills = (text) => (text.match(/forest-sig" cx="[^"]+" cy="[^"]+" r="[^"]+" fill="(#[0-9A-Fa-f]{6})"/g) ?? []).map((m) => m.slice(-8, -1));
  assert.ok(fills(file).length > 0);
  assert.deepEqual(fills(file), fills(forestOf(renderResultsHtml(results))));
  const none = structuredClone(results);
  for (const b of none.benches) b.results = b.results.filter((r) => r.driver === (b.deltaReference ?? results.settings.baseline));
  assert.equal(forestSvgFile(none), '');
});

test('the README and the published example run open with the forest plot of that run, as report --svg draws it from its results', () => {
  // readme-example.json: the example run's results file, its per-round arrays and bench orders cut.
  const results = fixture('readme-example');
  const picture = readFileSync(fileURLToPath(new URL('../../docs/images/example-run.svg', import.meta.url)), 'utf8');
  assert.equal(picture, forestSvgFile(results), 'docs/images/example-run.svg is stale: node bin/mysql-driver-bench.js report <the run> --svg docs/images/example-run.svg');
  assert.equal(count(picture, /<circle class="forest-point /g), deltaRows(results).length);
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const prints = readme.slice(readme.indexOf('## What a run prints'));
  assert.ok(prints.indexOf('](docs/images/example-run.svg)') > 0);
  assert.ok(prints.indexOf('](docs/images/example-run.svg)') < prints.indexOf('](docs/published-runs.md)'), 'the picture, then the link to its run');
  const page = readFileSync(fileURLToPath(new URL('../../docs/published-runs.md', import.meta.url)), 'utf8');
  const example = page.slice(page.indexOf('## The example default run'));
  assert.ok(example.includes('](../test/fixtures/results/readme-example.json)'), 'the page links the run\'s results file');
  assert.ok(example.indexOf('](images/example-run.svg)') > 0);
  assert.ok(example.indexOf('](images/example-run.svg)') < example.indexOf('```'), 'the picture comes before the tables');
  // The tables shown are the same run's.
  const doRow = results.benches.find((b) => b.name === 'do').results.find((r) => r.driver === 'mysql2');
  assert.ok(example.includes(`│ ${Math.round(doRow.opsPerSec).toLocaleString('en-US')} │`));
});
