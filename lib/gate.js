// `ci-driver`: a driver repository's pull-request gate in one command (what action.yml runs): the head
// and its merge-base with --base counted as two git rows of one count run; a bench whose count grows
// beyond --threshold % fails, unless V8's work moved and not the driver's (docs/ci.md).
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DESIGN_BENCHES, selectBenches } from '../benchs/index.js';
import { EXIT, usageError } from './common/errors.js';
import { defaultCacheDir } from './drivers/versions.js';
import { GIT_PACKAGES, openRepository, resolveCommit } from './drivers/git.js';
import { mergeBase } from './drivers/git-history.js';
import { reportGate } from './gate-report.js';
import { ACCEPT_LABEL, TOP_FUNCTIONS, driverSharePct, gateCounter, gateRows, unsettledBenches } from './reporting/gate-comment.js';
import { counterNamed, counterNames } from './replay/counters/index.js';
import { runProfileDiffs } from './results/profile-diff.js';
import { checkArtifactDir } from './results/artifact.js';
import { serialize } from './results/file.js';
import { countFloorPct } from './results/counts.js';
import { gateFences, keepBaseHistory, readBaseHistory } from './results/base-history.js';
import { FENCE_MIN_STEPS, judgedFloorPct } from './results/fences.js';
import { runRows } from './run-rows.js';

// The design card's seven benches: what a driver's gate counts unless told otherwise.
export const CI_DRIVER_BENCHES = DESIGN_BENCHES.map((b) => b.name);
export const CI_DRIVER_THRESHOLD = 1;
export const CI_DRIVER_COUNT = 'instructions';

const short = (sha) => sha.slice(0, 7);

/** The docs of this version on its repository (package.json's), where the comment's links point: https://github.com/<owner>/<name>/blob/v<version>/docs/. */
export function docsUrl(pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))) {
  const repo = /github\.com[/:]([^/]+\/[^/.]+)/.exec(pkg.repository?.url ?? '')?.[1] ?? 'mysql-driver-bench/mysql-driver-bench';
  return `https://github.com/${repo}/blob/v${pkg.version}/docs/`;
}

/** Pure: the commits a gate judged, in words. A tip ref that is the tip's own id (the action's default) is called the base. */
export function judgedCommits({ base, head, tip }) {
  const who = `**${head.label}** (head, ${short(head.commit)}) against`;
  if (!tip) return `${who} **${base.label}** (base, ${short(base.commit)})`;
  const ref = /^[0-9a-f]{7,}$/.test(tip.ref) && tip.commit.startsWith(tip.ref) ? 'the base' : tip.ref;
  return `${who} its merge-base **${base.label}** (${short(base.commit)}) with ${ref} (${tip.commit === base.commit ? 'its tip' : `tip ${short(tip.commit)}`})`;
}

/** Pure: the commits a gate judged, full ids, for its results file (results.gate). */
export const gateCommits = ({ base, head, tip }) => ({ head: head.commit, mergeBase: base.commit, baseTip: tip.commit, baseRef: tip.ref });

/**
 * Pure: the verdict as Markdown lines in the counter's words. A bench in `unsettled` (unsettledBenches)
 * or whose count was unsteady is said, not failed. Returns { regressed, regressions: [{ bench, deltaPct, counts }], failed, unsettled, lines }.
 */
export function driverVerdict(results, { threshold, base, head, tip, unsettled = [] }) {
  const { perOp } = gateCounter(results);
  const rows = gateRows(results, { threshold, base, head });
  const unsteady = rows.filter((r) => r.unsteady).map((r) => r.bench);
  // judgedPct: the smaller of the two heap states' changes.
  const found = rows.filter((r) => r.judgedPct !== null && !r.unsteady && !unsettled.includes(r.bench) && r.judgedPct > Math.max(threshold, r.floorPct))
    .map((r) => (r.collected && r.judgedPct !== r.changePct
      ? { bench: r.bench, deltaPct: r.judgedPct, counts: [r.collected.base, r.collected.head], from: 'collected' }
      : { bench: r.bench, deltaPct: r.judgedPct, counts: [r.base, r.head] }));
  // A bench whose change was not the same from a collected heap: V8's work moved with the heap's state.
  const heapMoved = rows.filter((r) => r.collected?.changePct !== null && r.collected?.changePct !== undefined && Math.abs(r.collected.changePct - r.changePct) > r.floorPct);
  const failed = results.benches.flatMap((b) => b.results.filter((r) => r.status === 'failed').map((r) => `${b.name} · ${r.driver}: ${r.error ?? 'failed'}`));
  const more = (pct) => `${pct > 0 ? '+' : ''}${pct.toFixed(2)} %`;
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const counts = (r) => (r.counts?.every(Number.isFinite) ? ` (${r.counts.map(fmt).join(' → ')})` : '');
  const lines = [`${judgedCommits({ base, head, tip })}, ${perOp}, threshold ${threshold} %:`];
  if (found.length) {
    lines.push('', ...found.map((r) => `- ❌ REGRESSION: ${r.bench}: the head needs ${more(r.deltaPct)} more ${perOp} than the base${counts(r)}${r.from ? ', counted from a collected heap' : ''}, beyond ${threshold} %`));
  } else if (!failed.length) {
    lines.push('', `- ✅ no bench needs more than ${threshold} % more ${perOp} (beyond the count's noise floor)`);
  }
  const said = rows.filter((r) => unsettled.includes(r.bench)).map((r) => `- ⚠️ UNSETTLED: ${r.bench}: ${more(r.changePct)} ${perOp} (${fmt(r.base)} → ${fmt(r.head)}), `
    + `less than half of it in the driver's own functions, the bytes allocated per operation unchanged (${fmt(r.bytes.base)} → ${fmt(r.bytes.head)}) `
    + `and one count unsettled (its windows ${r.spreads.map((x) => `${x.toFixed(2)} %`).join(' and ')} apart): V8's work moved, not the driver's; not failed`);
  said.push(...heapMoved.map((r) => `- ⚠️ UNSETTLED: ${r.bench}: ${more(r.changePct)} ${perOp} (${fmt(r.base)} → ${fmt(r.head)}) from the heap as the worker starts, `
    + `${more(r.collected.changePct)} (${fmt(r.collected.base)} → ${fmt(r.collected.head)}) from a heap collected before the driver loads: V8's work moved with the heap, not only the driver's; judged at ${more(r.judgedPct)}`));
  said.push(...unsteady.map((bench) => `- ⚠️ UNSTEADY: ${bench}: not judged: its count held a one-off event, or a full collection of the heap, in its windows twice`));
  if (said.length) lines.push(...(found.length || !failed.length ? [] : ['']), ...said);
  if (failed.length) lines.push('', ...failed.map((f) => `- ❌ FAILED: ${f}`));
  return { regressed: found.length > 0, regressions: found, failed, unsettled: [...unsettled], lines };
}

/** Pure: the line saying which fences the base branch's history gave, and which floors stand. */
export function fencesLine(file, { history, source, why }, results) {
  const head = `${file}${source === 'results' ? ' (a results file, only read)' : ''}: ${why ? `${why}; ` : ''}${history.commits.length} commit(s) of the base branch`;
  const benches = (results.benches ?? []).map((b) => {
    const fence = results.gate.fences.benches[b.name];
    const floor = countFloorPct(results.settings?.count, b.name);
    return !fence ? `${b.name} ${floor} % (the floor: fewer than ${FENCE_MIN_STEPS} steps)` : judgedFloorPct(fence, floor) === floor ? `${b.name} ${floor} % (the floor; its fence ${fence.fencePct.toFixed(2)} %)` : `${b.name} ${fence.fencePct.toFixed(2)} % (its fence)`;
  });
  return `${head}: ${benches.join(', ')}`;
}

/** The count run of the head and base rows, for runRows. It judges nothing itself (no threshold): ci-driver does. */
export function gateRequest({ repo, pkg, base, head, benches, out, json, count = CI_DRIVER_COUNT }) {
  const row = (ref) => `${pkg ? `${pkg}@` : ''}git:${repo}#${ref}`;
  // JIT names let a profile diff name the driver's functions without a second count (Valgrind counters only).
  return { benches, drivers: [row(base), row(head)], baseline: row(base), count, out, json, flags: counterNamed(count).tool ? { jitNames: true } : {} };
}

// Counted natively beside a Valgrind count: the bytes per operation tell a driver's step from V8's (unsettledBenches).
export const BYTES_COUNT = 'allocations';

/** Pure: each bench's count per operation at the base and the head row (a companion run's: bytes, a second heap state): { [bench]: { base, head } }, a row not counted null. */
export function countsByBench(results, { base, head }) {
  const perOp = (bench, label) => {
    const row = bench.results.find((r) => r.driver === label);
    return row?.ok && row.count?.perOp > 0 ? row.count.perOp : null;
  };
  return Object.fromEntries((results.benches ?? []).map((b) => [b.name, { base: perOp(b, base.label), head: perOp(b, head.label) }]));
}

/** Per moved bench, from the kept profiles: the functions that changed most and the driver's own share of the change. */
function movedFunctions(results, json, { threshold, base, head }) {
  const moved = gateRows(results, { threshold, base, head }).filter((r) => r.moved).map((r) => r.bench);
  if (!moved.length || !gateCounter(results).tool) return { functions: {}, driverSharePct: {} };
  const functions = {};
  const shares = {};
  for (const { bench, a, b, diff } of runProfileDiffs(results, json, { top: TOP_FUNCTIONS, benches: moved })) {
    if (a !== base.label || b !== head.label) continue;
    functions[bench] = diff.rows.map((r) => ({ name: r.name, where: r.where, deltaPerOp: Math.round(r.selfDelta) }));
    shares[bench] = driverSharePct(diff);
  }
  return { functions, driverSharePct: shares };
}

/** Refuse, before a run of minutes, a --comment whose directory cannot be made or written. */
function checkWritableDir(flag, file) {
  const dir = dirname(resolve(file));
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw usageError(`${flag} ${file}: cannot write in ${dir} (${err.code ?? err.message})`);
  }
}

/** The gate's commits from the command line: the repository, the base's tip, the head and their merge-base (the base row). */
function gateCommitsOf(asked) {
  const repo = openRepository(`--repo ${asked.repo}`, asked.repo);
  const tip = resolveCommit(`--base ${asked.base}`, repo, asked.base);
  const head = resolveCommit(`--head ${asked.head}`, repo, asked.head);
  if (tip === head) throw usageError(`--base ${asked.base} and --head ${asked.head} are the same commit (${short(head)}): nothing to compare`, 'give the pull request\'s base commit as --base');
  // The head's branch point: the base's later commits are not the head's to answer for.
  const base = mergeBase(repo, tip, head, { base: `--base ${asked.base}`, head: `--head ${asked.head}` });
  return { repo, tip, head, base };
}

/**
 * The gate's counts: the bytes first (natively: their run captures the replay sets the count reads),
 * then the count; a bench that moved is counted again from a heap collected before the driver loads.
 */
async function countGate({ repo, tip, head, base, benches, out, asked, env, stdout, stderr, signal, run }) {
  const say = (line) => { if (!asked.quiet) stderr.write(`${line}\n`); };
  const started = Date.now();
  const stamp = `${short(base)}-${short(head)}-${Date.now()}`;
  const json = join(out, `ci-driver-${stamp}.json`);
  const countRows = (count, file, { only = benches, collectedStart = false } = {}) => {
    const request = gateRequest({ repo: repo.dir, pkg: asked.package, base, head, benches: only, out, json: file, count });
    const flags = { ...request.flags, smoke: Boolean(asked.smoke), quiet: Boolean(asked.quiet), collectedStart };
    return run({ ...request, flags, debug: Boolean(asked.debug), env, stdout, stderr, signal });
  };
  const withBytes = asked.bytes && counterNamed(asked.count).tool;
  const bytesJson = withBytes ? join(out, `ci-driver-${stamp}-bytes.json`) : null;
  const bytesRun = withBytes ? await countRows(BYTES_COUNT, bytesJson) : { code: EXIT.OK, results: null };
  const { code, results } = await countRows(asked.count, json);
  if (!results) return { code };
  // A count a signal or a lost server stopped part-way is not judged: a bench not counted is no verdict.
  if (results.complete === false) {
    say(`the count stopped part-way (exit ${code}): nothing is judged; its rows are in ${json}`);
    return { code };
  }
  const rowOf = (sha) => results.drivers.find((d) => d.git?.commit === sha);
  const rows = { base: { label: rowOf(base).name, commit: base }, head: { label: rowOf(head).name, commit: head } };
  const judged = { ...rows, tip: { ref: asked.base, commit: tip } };
  // In the results file before the artifact copies it.
  const bytesResults = bytesRun.results;
  if (withBytes && !bytesResults) say(`the bytes allocated per operation were not counted (exit ${bytesRun.code}): every bench that moved is judged by its count alone`);
  results.gate = { ...gateCommits(judged), ...(bytesResults ? { bytes: { file: basename(bytesJson), benches: countsByBench(bytesResults, rows) } } : {}) };
  const history = asked.history ? readBaseHistory(resolve(asked.history), { results, driver: rowOf(base).package, repoDir: repo.dir, mergeBase: base }) : null;
  if (history) {
    results.gate.fences = { file: basename(asked.history), ...gateFences(history.history) };
    say(fencesLine(asked.history, history, results));
  }
  // A change that is the driver's is there from both heap states.
  const moved = gateRows(results, { threshold: asked.threshold, ...rows }).filter((r) => r.moved && !r.unsteady).map((r) => r.bench);
  const collectedJson = moved.length && counterNamed(asked.count).tool ? join(out, `ci-driver-${stamp}-collected.json`) : null;
  let collected = null;
  if (collectedJson) {
    say(`${moved.join(', ')} moved beyond ${asked.threshold} %: counted again from a heap collected before the driver loads`);
    ({ results: collected } = await countRows(asked.count, collectedJson, { only: moved, collectedStart: true }));
  }
  if (collected) results.gate.collected = { file: basename(collectedJson), benches: countsByBench(collected, rows) };
  writeFileSync(json, serialize(results));
  return { results, json, rows, judged, bytes: { results: bytesResults, file: bytesJson }, collected: { results: collected, file: collectedJson }, history, code, wallMs: Date.now() - started };
}

/** The verdict on a counted gate: the moved benches' functions, the unsettled ones, and whether the override label accepts a regression. */
function judgeGate({ results, json, rows, judged, bytes }, { asked }) {
  const profiles = movedFunctions(results, json, { threshold: asked.threshold, ...rows });
  const unsettled = unsettledBenches(gateRows(results, { threshold: asked.threshold, ...rows }), { driverSharePct: profiles.driverSharePct, bytesFloorOf: (bench) => countFloorPct(bytes.results?.settings?.count, bench) });
  const verdict = driverVerdict(results, { threshold: asked.threshold, ...judged, unsettled });
  const accept = { label: asked.acceptLabel, by: asked.acceptedBy || null };
  return { profiles, verdict, accept, accepted: Boolean(verdict.regressed && accept.by && !verdict.failed.length) };
}

/** The gate counted, judged, reported and its base history kept; `run` is runRows or a test's stand-in. Resolves to the exit code. */
export async function ciDriver(benchNames, asked, { stdout, stderr, env, signal, run = runRows }) {
  const commits = gateCommitsOf(asked);
  const benches = selectBenches(benchNames.length ? benchNames : CI_DRIVER_BENCHES).map((b) => b.name);
  const out = resolve(asked.out ?? join(defaultCacheDir(env), 'ci-driver'));
  if (asked.comment) checkWritableDir('--comment', asked.comment);
  if (asked.artifact) checkArtifactDir(asked.artifact, out);
  const counted = await countGate({ ...commits, benches, out, asked, env, stdout, stderr, signal, run });
  if (!counted.results) return counted.code; // refused or stopped before any row: its one line is said
  const judged = judgeGate(counted, { ...commits, asked });
  reportGate({ ...counted, ...judged, out, asked, env, stdout, stderr });
  if (counted.history && keepBaseHistory(resolve(asked.history), { ...counted.history, results: counted.results, mergeBase: commits.base }) && !asked.quiet) stderr.write(`the merge-base's figures were added to ${resolve(asked.history)}\n`);
  const failed = (judged.verdict.regressed && !judged.accepted) || judged.verdict.failed.length;
  return counted.code === EXIT.OK && failed ? EXIT.ROWS_FAILED : counted.code;
}
