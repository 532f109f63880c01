// scripts/import-graph.js as a check: the tree keeps lib/measuring/'s one-way rules and names no dead
// path in a comment, and an import that breaks a rule, or a comment naming a path that is not there
// (in a small tree of its own), fails it. Pure: reads files only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/import-graph.js', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

/** A tree of `files` ({ path: text }) in a temp dir; returns its root. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'mdb-import-graph-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('the tree keeps its folders acyclic and lib/measuring\'s rules, and its comments name paths that exist', () => {
  const r = run();
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /cycles: none/);
  assert.match(r.stdout, /rules \(\d+\): kept/);
  assert.match(r.stdout, /paths named in comments \(\d+ files\): all exist/);
});

/** A module that imports `names` from `paths` (relative specifiers) and exports `name`. */
const module = (name, imports = {}) => `${Object.entries(imports).map(([n, from]) => `import { ${n} } from '${from}';\n`).join('')}export const ${name} = 1;\n`;

test('an import against a rule fails the check, and names the file and the rule', (t) => {
  const root = tree({
    'lib/measuring/figures/sum.js': module('sum', { x: '../driver/loop.js' }),
    'lib/measuring/driver/loop.js': module('x'),
    'lib/measuring/run/plan.js': module('y', { x: '../driver/loop.js', sum: '../figures/sum.js' }),
    'lib/reporting/table.js': module('z', { y: '../measuring/run/plan.js' }),
    'bin/cli.js': module('w', { sum: '../lib/measuring/figures/sum.js' }),
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = run('--root', root);
  assert.equal(r.status, 1, r.stdout);
  const broken = r.stdout.split('\n').filter((l) => l.startsWith('rule broken:'));
  assert.equal(broken.length, 3, r.stdout);
  assert.match(r.stdout, /lib\/measuring\/figures\/sum\.js → lib\/measuring\/driver\/loop\.js: lib\/measuring\/figures never imports lib\/measuring\/driver/);
  assert.match(r.stdout, /lib\/measuring\/run\/plan\.js → lib\/measuring\/driver\/loop\.js: lib\/measuring\/run never imports lib\/measuring\/driver/);
  assert.match(r.stdout, /lib\/reporting\/table\.js → lib\/measuring\/run\/plan\.js: lib\/reporting never imports lib\/measuring\/run/);
});

test('a tree that keeps the rules passes', (t) => {
  const root = tree({
    'lib/measuring/figures/sum.js': module('sum'),
    'lib/measuring/driver/loop.js': module('x', { sum: '../figures/sum.js' }),
    'lib/measuring/run/plan.js': module('y', { sum: '../figures/sum.js' }),
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(run('--root', root).status, 0);
});

test('a comment naming a path that does not exist fails the check, one line each with its file and line', (t) => {
  const root = tree({
    'lib/measuring/driver/held-tuning.js': module('held'),
    'lib/measuring/driver/loop.js': [
      '// The hold is tuned in measuring/held-tuning.js (moved: its name exists, its folder does not).',
      "export const x = 'not a comment: gone/away.js'; // and nowhere.js",
      '/* Sized as',
      ' * figures/gone.js says. */',
      '',
    ].join('\n'),
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = run('--root', root);
  assert.equal(r.status, 1, r.stdout);
  const dead = r.stdout.split('\n').filter((l) => l.startsWith('dead path in a comment:'));
  assert.deepEqual(dead, [
    'dead path in a comment: lib/measuring/driver/loop.js:1 measuring/held-tuning.js',
    'dead path in a comment: lib/measuring/driver/loop.js:2 nowhere.js',
    'dead path in a comment: lib/measuring/driver/loop.js:4 figures/gone.js',
  ]);
});

test('paths that exist pass: from the file\'s folder or one above it, from lib/, a bare name found in the tree, a package', (t) => {
  const root = tree({
    'notes/measuring.md': '# measuring\n',
    'node_modules/benchmark/package.json': '{}',
    'lib/measuring/figures/sum.js': module('sum'),
    'lib/measuring/driver/loop.js': [
      '// ./loop.js, ../figures/sum.js, figures/sum.js (from lib/measuring/), measuring/figures/sum.js (from lib/),',
      '// lib/measuring/figures/sum.js and notes/measuring.md#a-heading (from the root), sum.js (a bare name), benchmark.js,',
      "// Node.js, https://example.com/gone.js, *.test.js, ${name}.js, <date>.json: not paths.",
      "export const s = `${'a'}/* ${1} */ gone/y.js`; // a template's text is no comment",
      '',
    ].join('\n'),
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = run('--root', root);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /paths named in comments \(\d+ files\): all exist/);
});

test('in a checkout without node_modules, a path into a dependency is not called dead: one line says it was not checked', (t) => {
  const root = tree({
    'package.json': JSON.stringify({ dependencies: { benchmark: '^2.1.4' } }),
    'lib/measuring/driver/loop.js': "// Timed as benchmark.js times a cycle (benchmark/benchmark.js), unlike gone.js.\nexport const x = 1;\n",
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const r = run('--root', root);
  assert.equal(r.status, 1, r.stdout);
  assert.deepEqual(r.stdout.split('\n').filter((l) => /dead path|node_modules/.test(l)), [
    'node_modules is missing: 2 path(s) into the dependencies not checked (npm ci, then run this again)',
    'dead path in a comment: lib/measuring/driver/loop.js:1 gone.js',
  ]);
});
