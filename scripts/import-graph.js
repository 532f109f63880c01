#!/usr/bin/env node
// Lists the imports between the top-level folders of lib/ (and benchs/, bin/), and the cycles among them;
// then checks the one-way rules between lib/measuring/'s sub-folders (RULES).
// Usage: node scripts/import-graph.js [--files] [--root <dir>]   (--files: name the importing file and
// its target on each edge; --root: check another tree, for the test)
// Exit code 1 when there is a cycle between folders, or an import that a rule forbids, so it can serve as a check.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootAt = process.argv.indexOf('--root');
const root = rootAt > 0 ? resolve(process.argv[rootAt + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const showFiles = process.argv.includes('--files');

// lib/measuring/ is split along the process boundary. Each rule: files of `from` never import `never`.
const M = 'lib/measuring';
const RULES = [
  { from: `${M}/figures`, never: [`${M}/driver`, `${M}/processes`, `${M}/planning`, `${M}/host`, `${M}/bench`], why: 'pure figures import nothing from the other sides' },
  { from: `${M}/bench`, never: [`${M}/driver`, `${M}/processes`, `${M}/planning`, `${M}/host`], why: 'a bench\'s plan is read on both sides' },
  { from: `${M}/driver`, never: [`${M}/processes`, `${M}/planning`, `${M}/host`], why: 'the driver process knows nothing of the harness' },
  { from: `${M}/processes`, never: [`${M}/driver`, `${M}/planning`, `${M}/host`], why: 'starting processes knows nothing of what runs in them, or of the run\'s plan' },
  { from: `${M}/host`, never: [`${M}/driver`, `${M}/processes`, `${M}/planning`, `${M}/bench`], why: 'the host\'s state is read apart from the run' },
  { from: `${M}/planning`, never: [`${M}/driver`], why: 'the harness talks to a driver process by messages, never by its code' },
  { from: 'lib/results', never: [`${M}/driver`, `${M}/processes`, `${M}/planning`, `${M}/host`], why: 'results read pure figures only' },
  { from: 'lib/reporting', never: [`${M}/driver`, `${M}/processes`, `${M}/planning`, `${M}/host`], why: 'reports read pure figures only' },
  { from: '*', never: [`${M}/driver`], why: 'only a driver process runs the driver process\'s code' },
];

function walk (dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.js')) out.push(path);
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
process.exitCode = components.length || broken.length ? 1 : 0;
