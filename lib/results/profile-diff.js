// Where the instructions went: two counted rows' kept profiles (replay/profiles.js) set side by side,
// function by function, per operation. A function is its name and file (a driver's file from its
// node_modules/ on, so two installs of one driver match); V8's JIT code is named through the row's
// perf map, and what the map does not name is one entry, '(unnamed JIT code)', said with its share.
import path from 'node:path';
import { usageError } from '../common/errors.js';
import { parseCallgrind } from '../replay/callgrind.js';
import { bareAddress, readPerfMap } from '../replay/perf-map.js';
import { readProfile } from '../replay/profiles.js';

export const UNNAMED = '(unnamed JIT code)';

/** Pure: a file as two installs of the same code share it (from its last node_modules/ on). */
const sharedFile = (file) => {
  const i = file.lastIndexOf('node_modules/');
  return i >= 0 ? file.slice(i) : file;
};

/**
 * Pure: a profile's windows ({ windows: [dump text], perfMap }) → Map key → { name, where, self, inclusive }
 * per operation (÷ ops), and { total, unnamed, summed } per operation: the dumps' totals, the unnamed
 * share's instructions, and the functions' self costs added up (equal to total).
 */
export function functionCosts(profile, ops) {
  const resolve = profile.perfMap ? readPerfMap(profile.perfMap) : () => null;
  const costs = new Map();
  let total = 0;
  let summed = 0;
  for (const text of profile.windows) {
    const dump = parseCallgrind(text);
    total += dump.summary ?? dump.totals ?? 0;
    for (const f of dump.functions) {
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
  return { costs, total: total / ops, summed: summed / ops, unnamed: costs.get(`${UNNAMED}\0`)?.self ?? 0 };
}

/**
 * Pure: the functions whose instructions per operation changed most from `a` to `b` (functionCosts'),
 * by self Δ (or `by: 'inclusive'`, with what each calls: a driver's function above the engine's work
 * it caused): [{ name, where, selfDelta, inclusiveDelta, sharePct (of the total Δ, by the same measure) }]
 * (the `top` largest), with { totalDelta, unnamed: { selfDelta, sharePct }, unnamedPct: [a's, b's share of their total] }.
 */
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
    unnamed: { selfDelta: unnamedDelta, sharePct: share(unnamedDelta) },
    unnamedPct: [a, b].map((s) => (s.total ? Math.round((s.unnamed / s.total) * 1000) / 10 : null)),
  };
}

/**
 * A counted row's profile, read: { costs, … } (functionCosts), from the results file `file` (its
 * directory is the run's --out). A row that is not there, not counted, counted before profiles were
 * kept, or whose profile was pruned is a usage error (exit 2) in one line.
 */
export function rowCosts(results, file, bench, driver) {
  const b = (results.benches ?? []).find((x) => x.name === bench);
  if (!b) throw usageError(`'${file}' has no bench ${bench}`);
  const row = b.results.find((r) => r.driver === driver);
  if (!row) throw usageError(`'${file}' has no row ${bench} · ${driver}; its rows are ${b.results.map((r) => r.driver).join(', ')}`);
  if (!row.count) throw usageError(`${bench} · ${driver} in '${file}' was not counted: profiles come with --replay --count instructions`);
  if (!row.count.profile) throw usageError(`${bench} · ${driver} in '${file}' has no profile: it was counted before profiles were kept, or failed`);
  const dir = path.join(path.dirname(file), row.count.profile);
  const profile = readProfile(dir);
  if (!profile) throw usageError(`the profile of ${bench} · ${driver} in '${file}' is gone (${dir}): pruned to keep profiles within their bound, or removed`);
  return { ...functionCosts(profile, row.count.ops), perOp: row.count.perOp };
}

/**
 * Per bench of a count run read from `file`, the baseline row (or the first) against each other row
 * with a kept profile: [{ bench, a, b, diff }]; rows whose profiles are gone are left out. For the HTML report.
 */
export function runProfileDiffs(results, file, { top = 10 } = {}) {
  const out = [];
  for (const bench of results.benches ?? []) {
    const kept = (bench.results ?? []).filter((r) => r.count?.profile);
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
