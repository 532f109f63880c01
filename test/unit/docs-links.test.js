// Every relative link in the README, docs/ and docs/history/ leads somewhere: the file exists, and an anchor names a
// heading of it (as GitHub makes them). Pure: reads the Markdown files only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...['docs', 'docs/history'].flatMap((dir) => readdirSync(join(root, dir)).filter((f) => f.endsWith('.md')).map((f) => join(dir, f)))];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown) {
  const seen = new Map();
  const anchors = new Set();
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

test('a heading\'s anchor as GitHub makes it', () => {
  const anchors = headingAnchors("## The README's example default run (2026-11-25, 21:19)\n## `compare`: two runs\n## `compare`: two runs\n");
  assert.deepEqual([...anchors], ['the-readmes-example-default-run-2026-11-25-2119', 'compare-two-runs', 'compare-two-runs-1']);
});

/** The relative links of a page's text (code blocks left out) whose file or heading does not exist: a bare `#anchor` is the page's own. */
function brokenLinks(page, markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const broken = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [path, anchor] = target.split('#');
    const file = path ? join(root, dirname(page), path) : join(root, page);
    if (!existsSync(file)) { broken.push(`${target}: no file ${relative(root, file)}`); continue; }
    if (anchor && file.endsWith('.md') && !headingAnchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no heading #${anchor}`);
  }
  return broken;
}

test('a broken anchor is caught on the same page, on another page and in the history', () => {
  const text = '[a](#the-ci-preset---ci) [b](#no-such) [c](glossary.md#baseline) [d](glossary.md#no-such) '
    + '[e](history/README.md) [f](history/2026-11-27-ci-preset.md#no-such) [g](missing-page.md) [h](https://example.com/#x)\n```\n[i](#in-a-block)\n```\n';
  assert.deepEqual(brokenLinks('docs/ci.md', text), ['#no-such: no heading #no-such', 'glossary.md#no-such: no heading #no-such',
    'history/2026-11-27-ci-preset.md#no-such: no heading #no-such', `missing-page.md: no file ${join('docs', 'missing-page.md')}`]);
  assert.deepEqual(brokenLinks('docs/history/README.md', '[a](../glossary.md#baseline) [b](../../README.md#quick-start) [c](2026-11-27-ci-preset.md#no-such)'),
    ['2026-11-27-ci-preset.md#no-such: no heading #no-such']);
});

for (const page of pages) {
  test(`${page}: every relative link and anchor resolves`, () => {
    assert.deepEqual(brokenLinks(page, readFileSync(join(root, page), 'utf8')), []);
  });
}

/** The .js files below `dir`, recursively. */
function sources (dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : sources(path);
    return e.name.endsWith('.js') ? [path] : [];
  });
}

test('every docs/… page and anchor that a source file cites exists', () => {
  const broken = [];
  for (const file of ['lib', 'scripts', 'bin', 'benchs', 'test'].flatMap(sources)) {
    for (const [, path, anchor] of readFileSync(join(root, file), 'utf8').matchAll(/\b(docs\/[\w./-]+\.md)(?:#([\w-]+))?/g)) {
      if (!existsSync(join(root, path))) broken.push(`${file}: ${path}: no such page`);
      else if (anchor && !headingAnchors(readFileSync(join(root, path), 'utf8')).has(anchor)) broken.push(`${file}: ${path}#${anchor}: no such heading`);
    }
  }
  assert.deepEqual(broken, []);
});
