#!/usr/bin/env node
// How `compare` fares on runs of this machine (docs/history/2026-11-25-compare-anchor.md):
//   node scripts/compare-acceptance.js r1.json r2.json r3.json ...   (identical runs, in the order taken)
// prints, for consecutive pairs, whether `compare --threshold 5` would exit 1 and each judged row's
// change; over all ordered pairs, the regressions called and the spread of the judged changes; and,
// for copies of each run with mysql2's windows made 5 % and 20 % slower, whether `--threshold 3` and
// `--threshold 10` flag them, against the run itself and against the run before it.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { compareResults } from '../lib/results/compare.js';

const files = process.argv.slice(2);
if (files.length < 2) {
  process.stderr.write('usage: node scripts/compare-acceptance.js <results.json> <results.json> [...] (identical runs, in the order taken)\n');
  process.exit(2);
}
const runs = files.map((f) => ({ name: basename(f, '.json'), results: JSON.parse(readFileSync(f, 'utf8')) }));

const pct = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} %`;
const judged = (c) => c.rows.filter((r) => r.judged === 'relative' && r.ci);
const describeRow = (r) => `${r.bench} · ${r.driver} ${pct(r.deltaPct)} [${r.ci.map((x) => x.toFixed(2)).join(', ')}]${r.regression ? ' REGRESSION' : r.significant ? ' significant' : ''}`;

/** A copy of a run with one driver's windows `factor` times as fast (its latencies divided by it). */
function scaled(results, driver, factor) {
  const copy = structuredClone(results);
  for (const bench of copy.benches) {
    for (const row of bench.results) {
      if (row.driver !== driver || !row.ok) continue;
      row.opsPerSec *= factor;
      if (row.sampleOpsPerSec) row.sampleOpsPerSec = row.sampleOpsPerSec.map((x) => x * factor);
      if (row.rounds) row.rounds = row.rounds.map((x) => ({ ...x, opsPerSec: x.opsPerSec * factor }));
      for (const k of Object.keys(row.latency ?? {})) if (typeof row.latency[k] === 'number') row.latency[k] /= factor;
    }
  }
  return copy;
}

console.log('consecutive pairs, --threshold 5:');
for (let i = 0; i + 1 < runs.length; i++) {
  const c = compareResults(runs[i].results, runs[i + 1].results, { threshold: 5 });
  console.log(`  ${runs[i].name} → ${runs[i + 1].name}: exit ${c.regressions.length ? 1 : 0}, host ${c.hostShiftPct === null ? '-' : pct(c.hostShiftPct)} | ${judged(c).map(describeRow).join(' | ')}`);
}

let pairs = 0;
let failing = 0;
const rows = [];
for (const a of runs) {
  for (const b of runs) {
    if (a === b) continue;
    const c = compareResults(a.results, b.results, { threshold: 5 });
    pairs++;
    if (c.regressions.length) failing++;
    rows.push(...judged(c));
  }
}
const sorted = (xs) => [...xs].sort((x, y) => x - y);
const abs = sorted(rows.map((r) => Math.abs(r.deltaPct)));
const half = sorted(rows.map((r) => (r.ci[1] - r.ci[0]) / 2));
console.log(`all ${pairs} ordered pairs: ${failing} would exit 1 at --threshold 5; ${rows.length} judged rows, `
  + `${rows.filter((r) => r.significant).length} significant; |Δ| median ${abs[abs.length >> 1].toFixed(2)} %, largest ${abs.at(-1).toFixed(2)} %; `
  + `± median ${half[half.length >> 1].toFixed(2)} %, largest ${half.at(-1).toFixed(2)} %`);

for (const [factor, threshold] of [[0.95, 3], [0.8, 10]]) {
  console.log(`mysql2 × ${factor} in every window, --threshold ${threshold} (flagged benches):`);
  runs.forEach((run, i) => {
    const flagged = (base, next) => compareResults(base, next, { threshold }).regressions.map((r) => r.bench).join(', ') || 'none';
    const own = flagged(run.results, scaled(run.results, 'mysql2', factor));
    const previous = i > 0 ? `; against ${runs[i - 1].name}: ${flagged(runs[i - 1].results, scaled(run.results, 'mysql2', factor))}` : '';
    console.log(`  copy of ${run.name}: against itself: ${own}${previous}`);
  });
}
