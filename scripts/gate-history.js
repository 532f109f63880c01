#!/usr/bin/env node
// A driver's history replayed as the gate (docs/ci.md#the-gate-on-a-drivers-history): each commit
// judged against its parent as ci-driver judges a pull request against its merge-base, from one count
// run whose rows are the history's commits (and one --count allocations run of the same rows, the
// bytes beside it, and one --collected-start run of the same rows: a bench that moved is judged as
// ci-driver judges it, from both heap states). With the benches' paths (which commit changes what each bench runs), it says which
// pull requests would have failed wrongly, which report a change they did not make, the largest
// off-path move per bench, and every real step with whether it is called and its functions.
// With --fences <repository>, each pair is judged with the fences the history's commits before it give
// (ci-driver --history), and --count-floor <pct> judges by that floor in place of the count's own.
//   node scripts/gate-history.js --counts <run.json> [--bytes <allocations.json>] [--collected <run.json>]
//     --pairs <pairs.json> [--paths <paths.json>] [--threshold 1] [--fences <repo>] [--count-floor <pct>] [--json <file>]
// pairs.json: [{ head, base, subject }] (full commit ids: each commit and the row of its parent's code);
// paths.json: [{ sha, benches: { <bench>: { touches } } }] (short ids, as the coverage gives them).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { applyDeltas } from '../lib/results/deltas.js';
import { driverVerdict, countsByBench } from '../lib/gate.js';
import { TOP_FUNCTIONS, driverSharePct, gateRows, unsettledBenches } from '../lib/reporting/gate-comment.js';
import { runProfileDiffs } from '../lib/results/profile-diff.js';
import { countFloorPct } from '../lib/results/counts.js';
import { execFileSync } from 'node:child_process';
import { emptyHistory, countingOf, historyCommits, withCommits } from '../lib/results/fences.js';
import { gateFences } from '../lib/results/base-history.js';

const { values: opts } = parseArgs({ options: {
  counts: { type: 'string' }, bytes: { type: 'string' }, collected: { type: 'string' }, pairs: { type: 'string' }, paths: { type: 'string' },
  threshold: { type: 'string', default: '1' }, json: { type: 'string' }, fences: { type: 'string' }, 'count-floor': { type: 'string' },
} });
if (!opts.counts || !opts.pairs) {
  process.stderr.write('usage: node scripts/gate-history.js --counts <run.json> [--bytes <allocations.json>] [--collected <run.json>] --pairs <pairs.json> [--paths <paths.json>] [--threshold 1] [--json <file>]\n');
  process.exit(2);
}
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const counts = read(opts.counts);
const bytes = opts.bytes ? read(opts.bytes) : null;
const collectedRun = opts.collected ? read(opts.collected) : null;
const pairs = read(opts.pairs);
const paths = opts.paths ? new Map(read(opts.paths).map((p) => [p.sha.slice(0, 7), p.benches])) : null;
const threshold = Number(opts.threshold);
if (opts['count-floor'] !== undefined) counts.settings.count = { ...counts.settings.count, noiseFloorPct: Number(opts['count-floor']), benchFloorsPct: {} };
// The history the fences come from: the counts' commits in the base branch's first-parent order.
const lastHead = pairs.at(-1)?.head;
const line = opts.fences ? execFileSync('git', ['-C', opts.fences, 'rev-list', '--first-parent', '--reverse', lastHead], { encoding: 'utf8' }).trim().split('\n') : null;
const history = line ? withCommits(emptyHistory(null, countingOf(counts)), historyCommits(counts), line) : null;
/** The fences from the history's commits up to `sha` (its steps before the pair judged). */
const fencesBefore = (sha) => {
  const upTo = history.commits.findIndex((c) => c.commit === sha);
  return upTo < 0 ? null : gateFences({ ...history, commits: history.commits.slice(0, upTo + 1) });
};

/** The row of `sha` in a run ({ label, commit }), or null. */
const rowOf = (results, sha) => {
  const d = results.drivers.find((x) => x.git?.commit === sha);
  return d ? { label: d.name, commit: sha } : null;
};

/** Pure: a run cut to two rows, the base its baseline, its Δs taken again (as a run of the two would). */
function pairRun(results, base, head) {
  const two = structuredClone(results);
  two.drivers = two.drivers.filter((d) => d.name === base.label || d.name === head.label);
  two.settings = { ...two.settings, baseline: base.label, drivers: [base.label, head.label] };
  for (const bench of two.benches) bench.results = bench.results.filter((r) => r.driver === base.label || r.driver === head.label);
  return applyDeltas(two);
}

const fmtPct = (x) => (x === null ? '-' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(2)} %`);
const judged = [];
for (const { head: headSha, base: baseSha, subject } of pairs) {
  const base = rowOf(counts, baseSha);
  const head = rowOf(counts, headSha);
  if (!base || !head) throw new Error(`no row for ${!base ? baseSha : headSha} in ${opts.counts}`);
  const run = pairRun(counts, base, head);
  run.gate = history ? { fences: fencesBefore(baseSha) } : {};
  const beside = (companion) => {
    const two = { base: rowOf(companion, baseSha), head: rowOf(companion, headSha) };
    return two.base && two.head ? countsByBench(companion, two) : null;
  };
  if (bytes && beside(bytes)) run.gate.bytes = { file: opts.bytes, benches: beside(bytes) };
  // As ci-driver: a bench that moved beyond the threshold, from the collected heap's run too.
  const first = gateRows(run, { threshold, base, head });
  const again = first.filter((r) => r.moved && !r.unsteady).map((r) => r.bench);
  if (collectedRun && again.length && beside(collectedRun)) {
    run.gate.collected = { file: opts.collected, benches: Object.fromEntries(Object.entries(beside(collectedRun)).filter(([bench]) => again.includes(bench))) };
  }
  const rows = gateRows(run, { threshold, base, head });
  const moved = rows.filter((r) => r.moved).map((r) => r.bench);
  const functions = {};
  const shares = {};
  for (const { bench, a, b, diff } of runProfileDiffs(run, opts.counts, { top: TOP_FUNCTIONS, benches: moved })) {
    if (a !== base.label || b !== head.label) continue;
    functions[bench] = diff.rows.slice(0, 3).map((r) => `${r.name} ${r.selfDelta > 0 ? '+' : ''}${Math.round(r.selfDelta)}`);
    shares[bench] = Math.round(driverSharePct(diff));
  }
  const unsettled = bytes ? unsettledBenches(rows, { driverSharePct: shares, bytesFloorOf: (bench) => countFloorPct(bytes.settings?.count, bench) }) : [];
  const verdict = driverVerdict(run, { threshold, base, head, unsettled });
  const failed = new Set(verdict.lines.filter((l) => l.includes('REGRESSION: ')).map((l) => /REGRESSION: (\w+):/.exec(l)[1]));
  const onPath = paths?.get(headSha.slice(0, 7));
  judged.push({
    head: headSha.slice(0, 7), base: baseSha.slice(0, 7), subject,
    benches: rows.map((r) => ({
      bench: r.bench, changePct: r.changePct, judgedPct: r.judgedPct, collectedPct: r.collected?.changePct ?? null, floorPct: r.floorPct, fencePct: r.fence?.fencePct ?? null, bytesPct: r.bytes?.changePct ?? null,
      onPath: onPath ? Boolean(onPath[r.bench]?.touches) : null,
      reported: r.changePct !== null && Math.abs(r.changePct) > r.floorPct && !r.unsteady,
      failed: failed.has(r.bench), moved: r.moved, unsettled: unsettled.includes(r.bench), unsteady: r.unsteady,
      driverSharePct: shares[r.bench] ?? null, functions: functions[r.bench] ?? [],
    })),
  });
}

// The table: a commit a line, each bench's change; ❌ the gate fails on it, ⚠️ unsettled (said, not
// failed), bold beyond the threshold, plain beyond its floor, · within it; ◦ marks a bench the commit's
// diff leaves alone.
const benches = judged[0]?.benches.map((b) => b.bench) ?? [];
const cell = (b) => {
  const mark = b.failed ? '❌ ' : b.unsettled ? '⚠️ ' : '';
  const text = !b.reported ? '·' : b.moved ? `**${fmtPct(b.changePct)}**` : fmtPct(b.changePct);
  return `${b.onPath === false ? '◦ ' : ''}${mark}${text}`;
};
const lines = [`| commit | ${benches.join(' | ')} |`, `|:--|${benches.map(() => '--:').join('|')}|`];
for (const j of judged) lines.push(`| ${j.head} ${j.subject.slice(0, 48)} | ${j.benches.map(cell).join(' | ')} |`);

// The summary against the paths.
const all = judged.flatMap((j) => j.benches.map((b) => ({ ...b, commit: j.head })));
const off = all.filter((b) => b.onPath === false);
const wrongFails = [...new Set(off.filter((b) => b.failed).map((b) => b.commit))];
const wrongReports = [...new Set(off.filter((b) => b.reported).map((b) => b.commit))];
const largestOff = Object.fromEntries(benches.map((name) => {
  const worst = off.filter((b) => b.bench === name && b.changePct !== null).sort((a, b) => Math.abs(b.changePct) - Math.abs(a.changePct))[0];
  return [name, worst ? { commit: worst.commit, changePct: worst.changePct } : null];
}));
const steps = all.filter((b) => b.onPath !== false && b.changePct !== null && Math.abs(b.changePct) >= threshold)
  .map((b) => ({ commit: b.commit, bench: b.bench, changePct: b.changePct, judgedPct: b.judgedPct, called: Math.abs(b.judgedPct) > threshold && !b.unsettled && !b.unsteady, functions: b.functions }));
lines.push('', `pull requests failed on a bench their diff leaves alone: ${wrongFails.length}${wrongFails.length ? ` (${wrongFails.join(', ')})` : ''}`);
lines.push(`pull requests reporting a change beyond the floor on a bench their diff leaves alone: ${wrongReports.length}${wrongReports.length ? ` (${wrongReports.join(', ')})` : ''}`);
lines.push(`largest move off a bench's path: ${benches.map((n) => `${n} ${largestOff[n] ? `${fmtPct(largestOff[n].changePct)} (${largestOff[n].commit})` : '-'}`).join(', ')}`);
if (history) {
  const last = fencesBefore(history.commits.at(-1).commit);
  lines.push(`fences from the history's ${last.commits} commits: ${benches.map((n) => `${n} ${last.benches[n] ? `${last.benches[n].fencePct.toFixed(3)} %` : '-'}`).join(', ')}; the floors judged by: ${benches.map((n) => `${n} ${countFloorPct(counts.settings.count, n)} %`).join(', ')}`);
}
lines.push(`steps of ${threshold} % or more on a bench's path: ${steps.length}, called ${steps.filter((s) => s.called).length}`);
for (const s of steps) lines.push(`  ${s.commit} ${s.bench} ${fmtPct(s.changePct)}${s.judgedPct !== s.changePct ? ` (judged ${fmtPct(s.judgedPct)})` : ''}: ${s.called ? 'called' : 'NOT called'}; ${s.functions.join(', ') || 'no functions'}`);
process.stdout.write(`${lines.join('\n')}\n`);
if (opts.json) writeFileSync(opts.json, `${JSON.stringify({ threshold, judged, summary: { wrongFails, wrongReports, largestOff, steps } }, null, 2)}\n`);
