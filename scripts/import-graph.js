#!/usr/bin/env node
// Lists the imports between the top-level folders of lib/ (and benchs/, bin/), and the cycles among them;
// then checks the one-way rules between lib/measuring/'s sub-folders (RULES), and that every file path
// a comment names exists (DEAD PATHS below).
// Usage: node scripts/import-graph.js [--files] [--root <dir>]   (--files: name the importing file and
// its target on each edge; --root: check another tree, for the test)
// Exit code 1 when there is a cycle between folders, an import that a rule forbids, or a comment naming
// a path that does not exist, so it can serve as a check.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootAt = process.argv.indexOf('--root');
const root = rootAt > 0 ? resolve(process.argv[rootAt + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const showFiles = process.argv.includes('--files');

// lib/measuring/ is split along the process boundary. Each rule: files of `from` never import `never`.
const M = 'lib/measuring';
const RULES = [
  { from: `${M}/figures`, never: [`${M}/driver`, `${M}/processes`, `${M}/run`, `${M}/host`, `${M}/bench`], why: 'pure figures import nothing from the other sides' },
  { from: `${M}/bench`, never: [`${M}/driver`, `${M}/processes`, `${M}/run`, `${M}/host`], why: 'a bench\'s plan is read on both sides' },
  { from: `${M}/driver`, never: [`${M}/processes`, `${M}/run`, `${M}/host`], why: 'the driver process knows nothing of the harness' },
  { from: `${M}/processes`, never: [`${M}/driver`, `${M}/run`, `${M}/host`], why: 'starting processes knows nothing of what runs in them, or of the run\'s plan' },
  { from: `${M}/host`, never: [`${M}/driver`, `${M}/processes`, `${M}/run`, `${M}/bench`], why: 'the host\'s state is read apart from the run' },
  { from: `${M}/run`, never: [`${M}/driver`], why: 'the harness talks to a driver process by messages, never by its code' },
  { from: 'lib/results', never: [`${M}/driver`, `${M}/processes`, `${M}/run`, `${M}/host`], why: 'results read pure figures only' },
  { from: 'lib/reporting', never: [`${M}/driver`, `${M}/processes`, `${M}/run`, `${M}/host`], why: 'reports read pure figures only' },
  { from: '*', never: [`${M}/driver`], why: 'only a driver process runs the driver process\'s code' },
];

function walk (dir, out = [], keep = (name) => name.endsWith('.js')) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) walk(path, out, keep);
    else if (keep(name)) out.push(path);
  }
  return out;
}

/** The folder a file belongs to: lib/<stage>, 'lib (run.js)' for a file at lib's top, benchs, bin, or a root file itself. */
function folderOf (file) {
  const parts = relative(root, file).split('/');
  if (parts[0] === 'lib') return parts.length > 2 ? `lib/${parts[1]}` : `lib (${parts[1]})`;
  return parts[0];
}

/** The zone the rules name: a sub-folder of lib/measuring, else the file's folder. */
function zoneOf (file) {
  const parts = relative(root, file).split('/');
  if (parts[0] === 'lib' && parts[1] === 'measuring' && parts.length > 3) return `lib/measuring/${parts[2]}`;
  return folderOf(file);
}

// Relative specifiers of static imports, re-exports, bare imports and dynamic import() with a string literal.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

const files = ['lib', 'benchs', 'bin'].filter((d) => existsSync(join(root, d))).flatMap((d) => walk(join(root, d)));
const edges = new Map(); // "a -> b" → [file: target]
const broken = []; // imports a rule forbids
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolve(dirname(file), m[2]);
    const [fromZone, toZone] = [zoneOf(file), zoneOf(target)];
    for (const rule of RULES) {
      if (fromZone === toZone || (rule.from !== '*' && rule.from !== fromZone)) continue;
      if (rule.from === '*' && fromZone.startsWith(`${M}/`)) continue; // inside lib/measuring, its own rules say
      if (rule.never.includes(toZone)) broken.push(`${relative(root, file)} → ${relative(root, target)}: ${fromZone} never imports ${toZone} (${rule.why})`);
    }
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${relative(root, file)} → ${relative(root, target)}`);
  }
}

const graph = new Map();
for (const key of [...edges.keys()].sort()) {
  const [from, to] = key.split(' -> ');
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
  console.log(`${key}  (${edges.get(key).length})`);
  if (showFiles) for (const line of edges.get(key)) console.log(`    ${line}`);
}

// Tarjan's strongly connected components: every component of more than one folder holds a cycle.
let index = 0;
const stack = [];
const info = new Map();
const components = [];
function connect (v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!info.has(w)) {
      connect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do { w = stack.pop(); info.get(w).onStack = false; component.push(w); } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const v of new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])])) if (!info.has(v)) connect(v);

const pairs = [];
for (const [a, tos] of graph) for (const b of tos) if (a < b && graph.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);

console.log('');
if (components.length === 0) console.log('cycles: none');
else {
  for (const c of components) console.log(`cycle among: ${c.join(', ')}`);
  for (const p of pairs) console.log(`  two-way: ${p}`);
}
if (broken.length === 0) console.log(`rules (${RULES.length}): kept`);
else for (const line of broken) console.log(`rule broken: ${line}`);

// DEAD PATHS. A comment in lib/, benchs/ or bin/ that names a file ending in .js, .cjs, .mjs, .md or
// .json names one that exists, read from the commenting file's folder or any folder above it up to
// the root (./x.js, proxy/calibrate.js, processes/launch.js from lib/measuring/driver/, lib/run.js,
// docs/measuring.md), or from lib/ (measuring/driver/sampler.js, server/stage.js) or node_modules/
// (a dependency's file). A bare name with no folder (sampler.js) may be a file of that name anywhere
// in the tree, or a package's name (benchmark.js). So a moved file's old path fails, even where a
// file of its name is elsewhere. Not paths: URLs, globs, templates, Node.js, the user's config file.
const PATH_IN_TEXT = /(?<![\w./@*${}<>:-])(?:\.{1,2}\/)?[\w@][\w./@-]*\.(?:c|m)?js(?:on)?\b|(?<![\w./@*${}<>:-])(?:\.{1,2}\/)?[\w@][\w./@-]*\.md\b/g;
const NOT_PATHS = new Set(['node.js', 'Node.js', 'mysql-driver-bench.config.json']);

/** The comments of a JavaScript source as [{ line (1-based), text }], one entry a comment line. */
function commentsOf (text) {
  const out = [];
  let line = 1;
  let last = ''; // the last significant character outside comments and strings: whether a / starts a regex
  const braces = []; // per template ${} being read: the { still open inside it
  /** Reads a template's text from `i` on: the index of its closing backtick, or of the { of a ${. */
  const template = (i) => {
    for (; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') line++;
      else if (text[i] === '`') return i;
      else if (text[i] === '$' && text[i + 1] === '{') { braces.push(0); return i + 1; }
    }
    return i;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') { line++; continue; }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      out.push({ line, text: text.slice(i + 2, end < 0 ? text.length : end) });
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const body = text.slice(i + 2, end < 0 ? text.length : end);
      body.split('\n').forEach((part, k) => out.push({ line: line + k, text: part }));
      line += body.split('\n').length - 1;
      i = (end < 0 ? text.length : end + 2) - 1;
    } else if (c === '`' || (c === '}' && braces.length && braces.at(-1) === 0)) {
      if (c === '}') braces.pop();
      i = template(i + 1);
      last = text[i] === '{' ? '{' : 'x';
    } else if (c === '\'' || c === '"' || (c === '/' && /^$|[(,=:[!&|?{};+\-*%<>~^]$/.test(last))) {
      // A string or a regex literal (a / where a value starts).
      let inClass = false;
      for (i++; i < text.length && text[i] !== '\n'; i++) {
        if (text[i] === '\\') i++;
        else if (c === '/' && text[i] === '[') inClass = true;
        else if (c === '/' && text[i] === ']') inClass = false;
        else if (text[i] === c && !inClass) break;
      }
      if (text[i] === '\n') i--;
      last = 'x';
    } else if (!/\s/.test(c)) {
      if (braces.length && c === '{') braces[braces.length - 1]++;
      else if (braces.length && c === '}') braces[braces.length - 1]--;
      last = /\w/.test(c) ? (/\breturn$/.test(text.slice(Math.max(0, i - 5), i + 1)) ? '=' : 'x') : c;
    }
  }
  return out;
}

const treeNames = new Set(walk(root, [], () => true).map((f) => f.split('/').pop()));
/** The folders a path in `file`'s comments is read from: its own, each above it up to the root, lib/, node_modules/. */
function bases (file) {
  const out = [join(root, 'lib'), join(root, 'node_modules')];
  for (let dir = dirname(file); dir.startsWith(root); dir = dirname(dir)) {
    out.push(dir);
    if (dir === root) break;
  }
  return out;
}
// Without node_modules (a checkout before npm ci), a path into a dependency cannot be checked: it is
// counted, and said in one line, not called dead.
const pkg = existsSync(join(root, 'package.json')) ? JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) : {};
const dependencies = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
const noModules = !existsSync(join(root, 'node_modules'));
let unchecked = 0;
const intoDependency = (path) => dependencies.has(path.split('/')[0].replace(/\.(?:c|m)?js$/, ''));
const resolves = (file, path) => bases(file).some((base) => existsSync(resolve(base, path)))
  || (!path.includes('/') && (treeNames.has(path) || existsSync(join(root, 'node_modules', path.replace(/\.(?:c|m)?js$/, '')))))
  || (noModules && intoDependency(path) && ++unchecked > 0);

const commented = ['lib', 'benchs', 'bin'].filter((d) => existsSync(join(root, d)))
  .flatMap((d) => walk(join(root, d), [], (name) => /\.(?:c|m)?js$/.test(name)));
const dead = [];
for (const file of commented) {
  for (const comment of commentsOf(readFileSync(file, 'utf8'))) {
    for (const [path] of comment.text.matchAll(PATH_IN_TEXT)) {
      if (!NOT_PATHS.has(path) && !resolves(file, path)) dead.push(`${relative(root, file)}:${comment.line} ${path}`);
    }
  }
}
if (unchecked) console.log(`node_modules is missing: ${unchecked} path(s) into the dependencies not checked (npm ci, then run this again)`);
if (dead.length === 0) console.log(`paths named in comments (${commented.length} files): all exist`);
else for (const line of dead) console.log(`dead path in a comment: ${line}`);
process.exitCode = components.length || broken.length || dead.length ? 1 : 0;
