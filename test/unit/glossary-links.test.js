// The glossary is linked where a reader meets its terms: each topic page links docs/glossary.md, and
// the first time a page uses a term of art in its prose, that use (or an earlier one) links the
// term's entry. Pure: reads the Markdown files only; docs-links.test.js checks that the anchors exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['docs/ci.md', 'docs/benches.md', 'docs/replay.md', 'docs/comparing.md', 'docs/usage.md'];

// The terms a page links at its first use, with their glossary anchors. Words that are also plain
// English at most of their uses (row, count, round, window) are left to the writer.
const TERMS = [
  ['paired Δ', 'paired-δ'], ['reference row', 'reference-row'], ['design benches', 'design-benches'],
  ['design card', 'design-card'], ['resolution', 'resolution'], ['noise floor', 'floor'], ['baseline', 'baseline'],
  ['anchor', 'anchor'], ['replay set', 'replay-replay-set'], ['variant', 'variant'], ['verdict', 'verdict'],
  ['forest plot', 'forest-plot'], ['A/A', 'aa'], ['twins', 'twins'], ['release history', 'release-history-step'],
  ['warm-up', 'lead-in-warm-up'], ['lead-in', 'lead-in-warm-up'], ['git row', 'git-row'], ['rme', 'rme--rme'],
];

/** A page's prose, one string per line: code blocks, headings, code spans and other pages' links blanked. */
function proseLines(markdown) {
  let inBlock = false;
  return markdown.split('\n').map((line) => {
    if (line.trim().startsWith('```')) { inBlock = !inBlock; return ''; }
    if (inBlock || line.startsWith('#')) return '';
    return line.replace(/`[^`]*`|\[[^\]]*\]\((?!glossary\.md#)[^)]*\)|<[^>]*>/g, (m) => ' '.repeat(m.length));
  });
}

/** The terms whose first use on the page is not a glossary link, and no earlier link names them. */
function unlinkedFirstUses(markdown) {
  const lines = proseLines(markdown);
  const unlinked = [];
  for (const [term, anchor] of TERMS) {
    const word = new RegExp(`(?<![\\w#/-])${term.replace(/[/]/g, '\\/')}(?![\\w-])`, 'i');
    const n = lines.findIndex((l) => word.test(l.replace(/\]\(glossary\.md#[^)]*\)/g, (m) => ' '.repeat(m.length))));
    if (n < 0) continue;
    const before = `${lines.slice(0, n).join('\n')}\n${lines[n]}`;
    if (!before.includes(`](glossary.md#${anchor})`)) unlinked.push(`${term} (line ${n + 1})`);
  }
  return unlinked;
}

test('a first use is found unlinked, and a linked one passes', () => {
  assert.deepEqual(unlinkedFirstUses('# Resolution\nThe resolution of `baseline`.\nThe baseline.\n'), ['resolution (line 2)', 'baseline (line 3)']);
  assert.deepEqual(unlinkedFirstUses('Its [resolution](glossary.md#resolution), then the resolution again.\n'), []);
  assert.deepEqual(unlinkedFirstUses('```\nbaseline\n```\n'), []);
});

for (const page of PAGES) {
  test(`${page} links the glossary at its first use of each term of art`, () => {
    const text = readFileSync(`${root}${page}`, 'utf8');
    assert.match(text, /\]\(glossary\.md#[\w\p{L}-]+\)/u, `${page} never links docs/glossary.md`);
    assert.deepEqual(unlinkedFirstUses(text), []);
  });
}
