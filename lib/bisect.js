// `bisect`: the first commit on the first-parent line from good to bad where a bench's count moved,
// each commit a git row of a count run (run-rows.js), judged by results/bisection.js. A commit that
// cannot be installed or run is skipped, as `git bisect skip` does (docs/ci.md, "Which commit moved a count: `bisect`").
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { selectBenches } from '../benchs/index.js';
import { EXIT, UserError, usageError } from './common/errors.js';
import { splitList } from './common/config.js';
import { defaultCacheDir } from './drivers/versions.js';
import { GIT_PACKAGES, openRepository, prepareGitCheckout, resolveCommit } from './drivers/git.js';
import { firstParentPath, isAncestor, subjectOf } from './drivers/git-history.js';
import { countFloorPct } from './results/counts.js';
import { counterNamed } from './replay/counters/index.js';
import { changePct, movedBenches, nextStep, stepsLeft, verdictOf } from './results/bisection.js';
import { runRows } from './run-rows.js';

const short = (sha) => sha.slice(0, 7);
const n = (x) => Math.round(x).toLocaleString('en-US');
const signed = (pct) => `${pct > 0 ? '+' : ''}${pct} %`;
const INSTRUCTIONS = counterNamed('instructions');
/** Pure: `+8 % more instructions/op`, `-4.6 % fewer bytes allocated/op`. */
export const moreOrFewer = (pct, counter = INSTRUCTIONS) => `${signed(pct)} ${pct > 0 ? 'more' : pct < 0 ? 'fewer' : 'the same'} ${counter.noun}/op`;
const countsText = (counts) => Object.entries(counts).map(([bench, c]) => `${bench} ${n(c)}`).join(' · ');

/** The run counting `commits` of `repo`, one row each, by `count` (a counter's name), for runRows. */
export function countRequest({ repo, pkg, commits, benches, out, json, count = INSTRUCTIONS.name }) {
  const row = (sha) => `${pkg ? `${pkg}@` : ''}git:${repo}#${sha}`;
  return { benches, drivers: commits.map(row), count, out, json, flags: { quiet: true } };
}

/** Pure: { byCommit: { [sha]: { counts, unsteady } | { error } }, floors }; a row without a count gives its commit an error. */
export function countsOf(results, commits, benches) {
  const byCommit = {};
  for (const sha of commits) {
    const driver = results.drivers.find((d) => d.git?.commit === sha);
    const counts = {};
    const unsteady = [];
    let error = driver ? null : 'not in the run';
    for (const name of benches) {
      const row = results.benches.find((b) => b.name === name)?.results.find((r) => r.driver === driver?.name);
      if (row?.count?.perOp > 0 && row.status !== 'failed') {
        counts[name] = row.count.perOp;
        if (row.count.unsteady) unsteady.push(name);
      } else error ??= `${name}: ${row?.error ?? row?.reason ?? row?.status ?? 'not counted'}`;
    }
    byCommit[sha] = error ? { error } : { counts, unsteady };
  }
  const floors = Object.fromEntries(benches.map((b) => [b, countFloorPct(results.settings?.count, b)]));
  return { byCommit, floors };
}

/** The bisection asked for, checked: the benches, the counter, the repository, good, bad and the first-parent path between them. */
function bisectionOf(repoPath, asked) {
  const benches = selectBenches(splitList(asked.bench)).map((b) => b.name);
  const counter = counterNamed(asked.count);
  if (asked.package && !GIT_PACKAGES.includes(asked.package)) {
    throw usageError(`--package ${asked.package}: not a driver the harness knows (${GIT_PACKAGES.join(', ')})`, 'name the package the repository holds, or leave --package out');
  }
  const repo = openRepository(repoPath, repoPath);
  const good = resolveCommit(`--good ${asked.good}`, repo, asked.good);
  const bad = resolveCommit(`--bad ${asked.bad}`, repo, asked.bad);
  if (good === bad) throw usageError(`--good ${asked.good} and --bad ${asked.bad} are the same commit (${short(good)}): nothing to bisect`, 'give a commit before the change as --good');
  if (!isAncestor(repo, good, bad)) {
    throw usageError(`--good ${asked.good} (${short(good)}) is not an ancestor of --bad ${asked.bad} (${short(bad)})`,
      isAncestor(repo, bad, good) ? 'they are in the wrong order: swap them' : 'name two commits of one line of history, the good one older');
  }
  const path = firstParentPath(repo, good, bad);
  // A --good that a merge brought in (a release tagged on another branch) is not on --bad's line.
  if (!path.length) {
    throw usageError(`--good ${asked.good} (${short(good)}) is an ancestor of --bad ${asked.bad} (${short(bad)}) but not on its first-parent line: a merge brought it in`,
      `bisect walks --bad's first-parent line: name as --good a commit on it (git log --first-parent ${short(bad)})`);
  }
  const subjects = new Map([[good, subjectOf(repo, good)], ...path.map((c) => [c.commit, c.subject])]);
  return { benches, counter, repo, good, bad, path, subjects };
}

/**
 * count(commits): one run for them; prepare(sha): install before the run, so that a failed install
 * skips the commit (a run's exit 5 would not say whether the commit or the host failed). A step counts
 * only its new commit: a count is the same on every run (docs/replay.md), so good's and bad's stand.
 */
function commitCounter({ repo, benches, counter, asked, out, cacheDir, signal, say }) {
  let runs = 0;
  const count = async (commits) => {
    mkdirSync(out, { recursive: true });
    const json = join(out, `bisect-${short(commits[0])}-${short(commits.at(-1))}-${Date.now()}-${runs++}.json`);
    const request = countRequest({ repo: repo.dir, pkg: asked.package, commits, benches, out, json, count: counter.name });
    const { code, results, said } = await runRows({ ...request, flags: { ...request.flags, smoke: Boolean(asked.smoke) }, debug: Boolean(asked.debug), signal });
    if ((code !== EXIT.OK && code !== EXIT.ROWS_FAILED) || !results) return { code, said };
    return { code, said, ...countsOf(results, commits, benches) };
  };
  const prepare = async (sha) => {
    try {
      await prepareGitCheckout(`${asked.package ? `${asked.package}@` : ''}git:${repo.dir}#${sha}`, { cacheDir, log: say });
      return null;
    } catch (err) {
      if (err instanceof UserError) return err;
      throw err;
    }
  };
  return { count, prepare, runs: () => runs };
}

/**
 * Good and bad counted in one run; neither is skipped: what stops either stops the bisection. A bench
 * unsteady at either end is not judged: its step may be a one-off event.
 */
async function countEnds({ good, bad, path, subjects, benches, counter, asked, counting, say, stderr }) {
  for (const [flag, sha] of [['--good', good], ['--bad', bad]]) {
    const err = await counting.prepare(sha);
    if (err) throw new UserError(`${flag} ${short(sha)}: ${err.message}`, { exitCode: err.exitCode, hint: err.hint });
  }
  say(`bisect: counting ${counter.perOp} at --good ${short(good)} and --bad ${short(bad)} (${benches.join(', ')}; ${path.length - 1} commit(s) between)`);
  const ends = await counting.count([good, bad]);
  if (!ends.byCommit) {
    stderr.write(ends.said);
    return { stopped: ends };
  }
  for (const [flag, sha] of [['--good', good], ['--bad', bad]]) {
    if (ends.byCommit[sha].error) throw usageError(`${flag} ${short(sha)} cannot be counted: ${ends.byCommit[sha].error}`, 'name benches both commits run');
  }
  const unsteadyEnds = new Set([...ends.byCommit[good].unsteady, ...ends.byCommit[bad].unsteady]);
  const moved = movedBenches(ends.byCommit[good].counts, ends.byCommit[bad].counts, { floors: ends.floors, thresholdPct: asked.threshold ?? null })
    .map((m) => (unsteadyEnds.has(m.bench) ? { ...m, moved: false, unsteady: true } : m));
  const steps = [
    { commit: good, subject: subjects.get(good), counts: ends.byCommit[good].counts, verdict: 'good' },
    { commit: bad, subject: subjects.get(bad), counts: ends.byCommit[bad].counts, verdict: 'bad' },
  ];
  say(`  good ${short(good)}  ${countsText(steps[0].counts)}  ${subjects.get(good)}`);
  say(`  bad  ${short(bad)}  ${countsText(steps[1].counts)}  ${subjects.get(bad)}`);
  const beyond = asked.threshold === undefined ? '' : `, --threshold ${asked.threshold} %`;
  for (const m of moved) say(`  ${m.bench}: ${moreOrFewer(m.changePct, counter)} from good to bad (${n(m.good)} → ${n(m.bad)}; noise floor ${m.floorPct} %${beyond})${m.unsteady ? ': unsteady at good or bad, not judged' : m.moved ? '' : ': not moved, not judged'}`);
  return { moved, steps };
}

/** Good and bad do not differ on any bench: said in one line, exit 1. */
function nothingToBisect(report, { good, bad, benches, stderr }) {
  const beyond = report.thresholdPct === null ? "the count's noise floor" : `the noise floor and --threshold ${report.thresholdPct} %`;
  const shaky = report.moved.filter((m) => m.unsteady).map((m) => m.bench);
  stderr.write(`mysql-driver-bench: bisect: --good ${short(good)} and --bad ${short(bad)} do not differ beyond ${beyond} on ${benches.join(', ')}${shaky.length ? ` (${shaky.join(', ')}: unsteady, not judged)` : ''}: nothing to bisect\n`);
  report.answer = { found: false, why: 'no move between good and bad' };
  return EXIT.ROWS_FAILED;
}

/** The first-parent path walked by binary search, one commit counted a step, until the first moved commit is found: the exit code, report.answer set. */
async function walkPath(report, { good, path, counter, counting, say, stdout, stderr, started }) {
  const { steps, moved } = report;
  const verdicts = new Map([[path.length - 1, 'bad']]);
  for (let step = 1; ; step++) {
    const next = nextStep(path.length, verdicts);
    if (next.found !== undefined) {
      const at = path[next.found];
      const parent = next.found === 0 ? good : path[next.found - 1].commit;
      const [countsAt, countsBefore] = [at.commit, parent].map((sha) => steps.find((s) => s.commit === sha).counts);
      const deltas = moved.filter((m) => m.moved).map((m) => ({ bench: m.bench, parent: countsBefore[m.bench], commit: countsAt[m.bench], changePct: changePct(countsBefore[m.bench], countsAt[m.bench]) }));
      report.answer = { found: true, commit: at.commit, subject: at.subject, parent, deltas };
      stdout.write(`first moved commit: ${short(at.commit)} ${at.subject}\n`);
      for (const d of deltas) stdout.write(`  ${d.bench}: ${moreOrFewer(d.changePct, counter)} against its parent ${short(parent)} (${n(d.parent)} → ${n(d.commit)})\n`);
      say(`bisect: ${steps.length - 2} step(s) after good and bad (${steps.filter((s) => s.verdict === 'skip').length} skipped), ${counting.runs()} count run(s), ${Math.round((Date.now() - started) / 1000)} s`);
      return EXIT.OK;
    }
    if (next.among) {
      const among = next.among.map((i) => path[i]);
      report.answer = { found: false, why: 'only skipped commits left', among: among.map((c) => c.commit) };
      stdout.write(`not found: the first moved commit is one of ${among.slice(0, -1).map((c) => short(c.commit)).join(', ')} (skipped) or ${short(among.at(-1).commit)}:\n`);
      for (const c of among) stdout.write(`  ${short(c.commit)} ${c.subject}\n`);
      return EXIT.ROWS_FAILED;
    }
    const at = path[next.next];
    const counted = await countStep(at, { counting, moved, stderr });
    if (counted.stopped) return counted.stopped;
    const verdict = counted.error ? 'skip' : verdictOf(counted.counts, moved, { thresholdPct: report.thresholdPct });
    verdicts.set(next.next, verdict);
    steps.push({ commit: at.commit, subject: at.subject, counts: counted.counts ?? null, verdict, ...(counted.error ? { reason: counted.error } : {}) });
    const after = nextStep(path.length, verdicts);
    const left = after.next === undefined ? 'done' : `at most ${stepsLeft(after.span)} more without skips`;
    say(`[${step}] ${short(at.commit)} ${verdict.padEnd(4)}  ${counted.error ? `(${counted.error})` : countsText(counted.counts)}  ${at.subject}  (${left})`);
  }
}

/** One commit of the path counted: { counts, unsteady } or { error } (skipped), or { stopped: code } when its run stopped the bisection. */
async function countStep(at, { counting, moved, stderr }) {
  const why = await counting.prepare(at.commit);
  if (why) return { error: why.message };
  const r = await counting.count([at.commit]);
  if (!r.byCommit) {
    stderr.write(r.said);
    return { stopped: r.code };
  }
  const counted = r.byCommit[at.commit];
  // An unsteady count of a judged bench says nothing of the step: the commit is skipped.
  const shaky = counted.unsteady?.filter((b) => moved.some((m) => m.moved && m.bench === b)) ?? [];
  return shaky.length ? { ...counted, error: `${shaky.join(', ')}: unsteady count (a one-off event in both its processes)` } : counted;
}

/** The bisection: steps on stderr, the answer on stdout, the report to --json. Resolves to the exit code. */
export async function bisect(repoPath, asked, { stdout, stderr, env, signal }) {
  const ctx = { ...bisectionOf(repoPath, asked), asked, stdout, stderr, started: Date.now() };
  ctx.say = (line) => { if (!asked.quiet) stderr.write(`${line}\n`); };
  ctx.counting = commitCounter({ ...ctx, out: resolve(asked.out ?? join(defaultCacheDir(env), 'bisect')), cacheDir: defaultCacheDir(env), signal });
  const ends = await countEnds(ctx);
  if (ends.stopped) return ends.stopped.code;
  const report = { repository: ctx.repo.dir, good: ctx.good, bad: ctx.bad, benches: ctx.benches, count: ctx.counter.name, thresholdPct: asked.threshold ?? null, smoke: Boolean(asked.smoke), moved: ends.moved, steps: ends.steps, answer: null };
  const code = ends.moved.some((m) => m.moved) ? await walkPath(report, ctx) : nothingToBisect(report, ctx);
  if (asked.json) {
    mkdirSync(dirname(resolve(asked.json)), { recursive: true });
    writeFileSync(resolve(asked.json), `${JSON.stringify({ ...report, seconds: Math.round((Date.now() - ctx.started) / 1000) }, null, 2)}\n`);
  }
  return code;
}
