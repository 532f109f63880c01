// Where the instructions went: two counted rows' kept profiles side by side, per function and operation.
// A function is its name and its file inside its package or checkout, so two installs of one driver match;
// V8's compile work is left out, as from the count (docs/replay.md, "Where the instructions went").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageError } from '../common/errors.js';
import { engineEntry, insideRoots, isGcEntry, isJitEntry, parseCallgrind, rootedGroups } from '../replay/callgrind.js';
import { bareAddress, readPerfMap } from '../replay/perf-map.js';
import { readProfile } from '../replay/profiles.js';
import { releaseHistory } from './history.js';

export const UNNAMED = '(unnamed JIT code)';

// This checkout of the harness, as a driver module outside the count's sandbox imports it (with a slash).
const HARNESS_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Where a count process saw a checkout's driver and the harness (replay/count-sandbox.js), and where the
// cache keeps a commit (drivers/git.js): prefixes that differ from row to row for the same file.
const CHECKOUT_ROOTS = [
  [/^.*\/mdb-[0-9a-f]{6,12}[A-Za-z0-9]*\/d\//, '<driver>/'],
  [/^.*\/mdb-[0-9a-f]{6,12}[A-Za-z0-9]*\/h\//, '<harness>/'],
  [/^.*\/git\/commits\/[0-9a-f]{40}\//, '<driver>/'],
];

/** Pure: a file as two installs of the same code share it: from its last node_modules/ on, or from its root. */
export function sharedFile(file) {
  file = file.replace(/^file:\/\//, '');
  const i = file.lastIndexOf('node_modules/');
  if (i >= 0) return file.slice(i);
  if (file.startsWith(HARNESS_ROOT)) return `<harness>/${file.slice(HARNESS_ROOT.length)}`;
  for (const [root, as] of CHECKOUT_ROOTS) if (root.test(file)) return file.replace(root, as);
  return file;
}

// V8's compiler and parser: their work counted inside the compile entries (isJitEntry), which the count leaves out.
const COMPILER = /^v8::internal::(?:compiler|maglev|baseline|interpreter::BytecodeGenerator|Parser|ParserBase|PreParser|Scanner|AstValueFactory)\b/;

/**
 * Pure: per operation, each function's costs and the totals without V8's compile and collector work. A function
 * that ran only inside a collection is the collector's; one that also ran outside (a copy) keeps its whole cost.
 */
export function functionCosts(profile, ops) {
  const resolve = profile.perfMap ? readPerfMap(profile.perfMap) : () => null;
  const costs = new Map();
  let total = 0;
  let summed = 0;
  let compiling = 0;
  let collecting = 0;
  let leftOut = 0;
  for (const text of profile.windows) {
    const dump = parseCallgrind(text);
    const engine = rootedGroups(text, engineEntry, ['jit', 'gc'])?.groups;
    const [jit, gc] = [engine?.jit.Ir ?? 0, engine?.gc.Ir ?? 0];
    total += (dump.summary ?? dump.totals ?? 0) - jit - gc;
    compiling += jit;
    collecting += gc;
    const collector = insideRoots(dump, isGcEntry);
    for (const f of dump.functions) {
      if (isJitEntry(f.name) || COMPILER.test(f.name) || collector.has(f.name)) {
        leftOut += f.self;
        continue;
      }
      const address = bareAddress(f.name);
      let id;
      if (address === null) {
        const file = f.file && f.file !== '???' ? f.file : path.basename(f.object);
        id = { name: f.name, file: sharedFile(file), line: f.file && f.file !== '???' ? f.line : null };
      } else {
        const jit = resolve(address);
        id = jit ? { name: jit.name, file: sharedFile(jit.file), line: jit.line } : { name: UNNAMED, file: '', line: null };
      }
      const key = `${id.name}\0${id.file}`;
      const c = costs.get(key) ?? { name: id.name, where: id.file ? `${id.file}${id.line ? `:${id.line}` : ''}` : '', self: 0, inclusive: 0 };
      c.self += f.self / ops;
      c.inclusive += f.inclusive / ops;
      summed += f.self;
      costs.set(key, c);
    }
  }
  return { costs, total: total / ops, summed: summed / ops, compiling: compiling / ops, collecting: collecting / ops, leftOut: leftOut / ops, unnamed: costs.get(`${UNNAMED}\0`)?.self ?? 0 };
}

/** Pure: the `top` functions that changed most from `a` to `b`, by self Δ or (`by: 'inclusive'`) with what each calls. */
export function diffCosts(a, b, { top = 15, by = 'self' } = {}) {
  const keys = new Set([...a.costs.keys(), ...b.costs.keys()]);
  const totalDelta = b.total - a.total;
  const share = (d) => (totalDelta ? Math.round((d / totalDelta) * 1000) / 10 : null);
  const rows = [];
  for (const key of keys) {
    const x = a.costs.get(key);
    const y = b.costs.get(key);
    const selfDelta = (y?.self ?? 0) - (x?.self ?? 0);
    const inclusiveDelta = (y?.inclusive ?? 0) - (x?.inclusive ?? 0);
    if (Math.abs(selfDelta) < 0.5 && Math.abs(inclusiveDelta) < 0.5) continue;
    rows.push({ name: (y ?? x).name, where: (y ?? x).where, selfDelta, inclusiveDelta, sharePct: share(by === 'inclusive' ? inclusiveDelta : selfDelta) });
  }
  const key = by === 'inclusive' ? 'inclusiveDelta' : 'selfDelta';
  rows.sort((p, q) => Math.abs(q[key]) - Math.abs(p[key]));
  const unnamedDelta = b.unnamed - a.unnamed;
  return {
    base: a.total, next: b.total, totalDelta, rows: rows.slice(0, top),
    compiling: [a.compiling ?? 0, b.compiling ?? 0],
    collecting: [a.collecting ?? 0, b.collecting ?? 0],
    ...(a.named !== undefined && a.named !== b.named ? { namesOnOneSide: true } : {}),
    unnamed: { selfDelta: unnamedDelta, sharePct: share(unnamedDelta) },
    unnamedPct: [a, b].map((s) => (s.total ? Math.round((s.unnamed / s.total) * 1000) / 10 : null)),
  };
}

/** Pure: where a row's kept profile may be: under the run's --out (its replay dir's parent), else beside the file. */
export function profileDirs(results, file, profile) {
  const replayDir = results.settings?.replay?.dir;
  const outs = [replayDir ? path.dirname(path.resolve(replayDir)) : null, path.dirname(path.resolve(file))].filter(Boolean);
  return [...new Set(outs)].map((out) => path.join(out, profile));
}

/** A counted row's costs, from its JIT-named profile where it has one, or a usage error that says why not. */
export function rowCosts(results, file, bench, driver) {
  const b = (results.benches ?? []).find((x) => x.name === bench);
  if (!b) throw usageError(`'${file}' has no bench ${bench}`);
  const row = b.results.find((r) => r.driver === driver);
  if (!row) throw usageError(`'${file}' has no row ${bench} · ${driver}; its rows are ${b.results.map((r) => r.driver).join(', ')}`);
  if (!row.count) throw usageError(`${bench} · ${driver} in '${file}' was not counted: profiles come with --replay --count instructions`);
  const kept = row.count.namedProfile ?? row.count.profile;
  if (!kept) throw usageError(`${bench} · ${driver} in '${file}' has no profile: the run kept none (it was counted before profiles were kept, or its row failed)`);
  const dirs = profileDirs(results, file, kept);
  for (const dir of dirs) {
    const profile = readProfile(dir);
    if (profile) return { ...functionCosts(profile, row.count.ops), perOp: row.count.perOp, named: Boolean(profile.perfMap) };
  }
  const pruned = dirs.find((d) => fs.existsSync(path.dirname(path.dirname(path.dirname(d)))));
  throw usageError(pruned
    ? `the profile of ${bench} · ${driver} in '${file}' is gone (${pruned}): pruned to keep profiles within their bound, or removed`
    : `the profile of ${bench} · ${driver} in '${file}' is not found at ${dirs.join(' nor ')}: give the results file from the run's --out directory, where its profiles/ are`);
}

/** Per bench, the baseline row (or the first) against each other row with a kept profile; gone ones left out. */
export function runProfileDiffs(results, file, { top = 10, benches = null } = {}) {
  const out = [];
  for (const bench of (results.benches ?? []).filter((b) => !benches || benches.includes(b.name))) {
    const kept = (bench.results ?? []).filter((r) => r.count?.profile || r.count?.namedProfile);
    if (kept.length < 2) continue;
    const base = kept.find((r) => r.driver === results.settings?.baseline) ?? kept[0];
    let a;
    try { a = rowCosts(results, file, bench.name, base.driver); } catch { continue; }
    for (const row of kept.filter((r) => r !== base)) {
      try { out.push({ bench: bench.name, a: base.driver, b: row.driver, diff: diffCosts(a, rowCosts(results, file, bench.name, row.driver), { top }) }); } catch { /* pruned */ }
    }
  }
  return out;
}

// Functions kept per step of a history: enough to say what moved, few enough to keep a record small.
export const STEP_FUNCTIONS = 3;

/** The functions that moved most across each step of a counted history, by bench and 'from→to'; null without one. */
export function historyStepFunctions(results, file, { top = STEP_FUNCTIONS } = {}) {
  const history = results.settings?.count ? releaseHistory(results) : null;
  const out = {};
  for (const h of history?.benches ?? []) {
    for (const step of h.steps) {
      const [a, b] = [step.from, step.to].map((label) => h.points.find((p) => p.release === label)?.driver);
      let diff;
      try { diff = diffCosts(rowCosts(results, file, h.bench, a), rowCosts(results, file, h.bench, b), { top }); } catch { continue; }
      (out[h.bench] ??= {})[`${step.from}→${step.to}`] = diff.rows.map((r) => ({ name: r.name, where: r.where ?? null, deltaPerOp: Math.round(r.selfDelta) }));
    }
  }
  return Object.keys(out).length ? out : null;
}
