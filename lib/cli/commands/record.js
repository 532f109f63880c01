// `mysql-driver-bench record [driver...]`: the public record (results/record.js), a file per driver in
// --dir, built by count runs (run-rows.js) and bisections (bisect.js); a rerun counts only what it lacks.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DESIGN_BENCHES } from '../../../benchs/index.js';
import { EXIT, usageError } from '../../common/errors.js';
import { SEMVER } from '../../common/semver.js';
import { defaultCacheDir } from '../../drivers/versions.js';
import { publishedVersions, selectReleases } from '../../drivers/ranges.js';
import { LATEST_FORMAT, RECORD_COUNTERS, RECORD_FORMAT, TIMED_STEP_PCT, emptyRecord, latestTimed, latestVersions, mergeCount, mergeRecords, missingReleases, pairsToTime, releaseSlices, recordSteps, serializeRecord, stepKey, stepsToBisect, withCommit, withTimed } from '../../results/record.js';
import { git, openRepository } from '../../drivers/git.js';
import { positiveInteger } from '../../common/config.js';
import { nonNegativeNumber } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';
import { fmtStepChange } from '../../reporting/history.js';
import { functionsText } from '../../reporting/function-name.js';
import { renderRecordSite } from '../../reporting/record-site.js';
import { runRows } from '../../run-rows.js';
import { bisect } from '../../bisect.js';
import { sayError } from '../../common/error-line.js';

// Where each driver's record starts: mysql2 and mariadb from their 3.0.0, mysql's 2.x line.
export const RECORD_FROM = { mysql2: '3.0.0', mariadb: '3.0.0', mysql: '2.0.0' };
export const RECORD_TO = { mysql: '2.99.99' };


/** The record of `driver` in `dir`, or a new one; a file that is not a record is a usage error. */
function readRecord(dir, driver) {
  const file = join(dir, `${driver}.json`);
  if (!existsSync(file)) return { file, record: emptyRecord(driver) };
  let record;
  try { record = JSON.parse(readFileSync(file, 'utf8')); } catch (err) { throw usageError(`${file}: not JSON (${err.message})`, 'move it away, and record again'); }
  if (record.format !== RECORD_FORMAT || record.driver !== driver) throw usageError(`${file} is not ${driver}'s record (format ${record.format ?? 'none'})`, 'give --dir a record directory');
  return { file, record };
}

/** The tag of release `version` in a repository: v3.23.1 or 3.23.1, or null. */
function releaseTag(repo, version) {
  return [`v${version}`, version].find((tag) => git(['-C', repo, 'rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]).code === 0) ?? null;
}

/** A step's commit: `bisect` between its two release tags on its bench and counter, { commit, subject } or { why }. */
async function bisectStep(step, { repo, driver, out, flags, debug, bisectRun, say, stderr: shown }) {
  const [good, bad] = [releaseTag(repo, step.from), releaseTag(repo, step.to)];
  if (!good || !bad) {
    const why = `no tag ${!good ? step.from : step.to} in the repository`;
    say(`${driver}: ${step.bench} ${step.key} ${step.from} → ${step.to}: ${why}`);
    return { why };
  }
  const json = join(out, `bisect-${driver}-${step.key}-${step.bench}-${step.from}-${step.to}.json`);
  const started = Date.now();
  let said = '';
  const stderr = { write: (text) => { said += text; return shown.write(text); } };
  const asked = { good, bad, bench: step.bench, package: driver, count: RECORD_COUNTERS[step.key], json, out: join(out, 'bisect'), ...flags, debug };
  const code = await bisectRun(repo, asked, { stdout: { write: () => true }, stderr });
  let answer;
  try { answer = JSON.parse(readFileSync(json, 'utf8')).answer; } catch { answer = null; }
  // Why a bisection that gave no answer stopped: its one line (mysql-driver-bench: …), else its exit code.
  const stopped = said.split('\n').find((l) => l.startsWith('mysql-driver-bench: '))?.replace(/^mysql-driver-bench: (error: )?/, '').replace(/ — .*$/, '');
  const found = answer?.found ? { commit: answer.commit, subject: answer.subject } : { why: answer?.why ?? stopped ?? `the bisection stopped (exit ${code})` };
  say(`${driver}: ${step.bench} ${step.key} ${step.from} → ${step.to}: ${found.commit ? `${found.commit.slice(0, 7)} ${found.subject}` : found.why} (${Math.round((Date.now() - started) / 1000)} s)`);
  return found;
}

/** The releases `record` lacks of `driver`, counted in both counters and merged: the record and the exit code. */
async function countMissing(driver, record, file, { opts, out, flags, debug, benches, run, say, versionsOf }) {
  const from = opts.from ?? RECORD_FROM[driver];
  const to = opts.to ?? RECORD_TO[driver] ?? null;
  const published = selectReleases(await versionsOf(driver), { from, to: to ?? '999.999.999', step: 'all', pre: false });
  const { missing, before } = missingReleases(record, published, { from, to, limit: opts.limit ?? Infinity });
  if (!missing.length) {
    say(`${driver}: the record holds every release from ${from}${to ? ` to ${to}` : ''} (${record.releases.length}): nothing to count`);
    return { record, missing, code: EXIT.OK };
  }
  const first = before ?? missing[0];
  const range = `${driver}@${first}..${missing.at(-1)}`;
  say(`${driver}: ${missing.length} release${missing.length === 1 ? '' : 's'} to add (${missing[0]} … ${missing.at(-1)})${before ? `, counted with ${before}, the one before them` : ''}: ${range}`);
  let code = EXIT.OK;
  for (const [key, counter] of Object.entries(RECORD_COUNTERS)) {
    if (key === 'bytes' && !opts.bytes) continue;
    const json = join(out, `${driver}-${key}-${first}-${missing.at(-1)}.json`);
    const started = Date.now();
    const { code: runCode, results } = await run({ benches, drivers: [range], baseline: `${driver}@${first}`, count: counter, out, json, flags, debug });
    // A run that stopped part-way (a signal, a lost server) adds nothing: its rows are not all counted.
    if (!results || results.complete === false) {
      say(`${driver}: the ${key} count stopped (exit ${runCode}): the record is left as it was`);
      return { record, missing, code: runCode || EXIT.UNEXPECTED };
    }
    record = mergeCount(record, key, results);
    writeFileSync(file, serializeRecord(record));
    say(`${driver}: ${key} of ${missing.length + (before ? 1 : 0)} release(s) counted in ${Math.round((Date.now() - started) / 1000)} s; ${file} saved`);
    if (runCode !== EXIT.OK && runCode !== EXIT.ROWS_FAILED) code = runCode;
  }
  return { record, missing, code };
}

/** Each step of at least --bisect-min without a commit, bisected between its release tags (largest first), the record saved after each. */
async function bisectSteps(driver, record, file, ctx) {
  const steps = stepsToBisect(record, ctx.opts.bisectMin);
  if (steps.length) ctx.say(`${driver}: ${steps.length} step(s) of ${ctx.opts.bisectMin} % or more to bisect in ${ctx.repos[driver]}`);
  for (const s of steps) {
    if (ctx.stopped()) break;
    const answer = await bisectStep(s, { repo: ctx.repos[driver], driver, ...ctx });
    if (ctx.stopped()) break;
    record = withCommit(record, stepKey(s.key, s.bench, s.from, s.to), answer);
    writeFileSync(file, serializeRecord(record));
  }
  return record;
}

/** Each release pair with a step of TIMED_STEP_PCT % or more, timed in a replay of its benches; the record saved after each. */
async function timeSteps(driver, record, file, { out, flags, debug, run, say }) {
  const pairs = pairsToTime(record);
  if (pairs.length) say(`${driver}: ${pairs.length} release pair(s) with a step of ${TIMED_STEP_PCT} % or more to time in a replay`);
  for (const pair of pairs) {
    const json = join(out, `timed-${driver}-${pair.from}-${pair.to}.json`);
    const started = Date.now();
    const { code, results } = await run({ benches: pair.benches, drivers: [`${driver}@${pair.from}`, `${driver}@${pair.to}`], out, json, flags, debug });
    if (!results || results.complete === false) { say(`${driver}: the timed replay of ${pair.from} → ${pair.to} stopped (exit ${code}): left for the next run`); return record; }
    record = withTimed(record, pair, results);
    writeFileSync(file, serializeRecord(record));
    const timed = recordSteps(record).filter((s) => s.from === pair.from && s.to === pair.to && s.key === 'instructions' && s.timed);
    say(`${driver}: ${pair.from} → ${pair.to} timed (${Math.round((Date.now() - started) / 1000)} s): ${timed.map((s) => `${s.bench} ${s.timed.why ?? `${s.timed.opsPerSecPct > 0 ? '+' : ''}${s.timed.opsPerSecPct} % ops/s${s.timed.agrees ? '' : ', not the count\'s way'}`}`).join(', ') || 'no instructions step'}`);
  }
  return record;
}

/** The drivers' newest releases timed side by side against a real server (the default run), kept in the record directory (its latest file) when they changed. */
async function timeLatest(dir, { out, flags, debug, run, say, benches }) {
  const records = recordsIn(dir);
  const versions = latestVersions(records);
  if (!versions.mysql || Object.keys(versions).length < 2) return;
  const file = join(dir, 'latest.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  if (kept?.format === LATEST_FORMAT && JSON.stringify(kept.versions) === JSON.stringify(versions)) return;
  // mysql first: the baseline, as the default run's.
  const drivers = Object.keys(RECORD_FROM).sort((a, b) => (a === 'mysql' ? -1 : b === 'mysql' ? 1 : 0)).filter((d) => versions[d]).map((d) => `${d}@${versions[d]}`);
  const json = join(out, `latest-${drivers.join('-')}.json`);
  say(`the newest releases timed side by side against a real server: ${drivers.join(', ')}`);
  const { code, results } = await run({ benches, drivers, replay: false, out, json, flags, debug });
  if (!results || results.complete === false) { say(`the timed run of the newest releases stopped (exit ${code}): left for the next run`); return; }
  writeFileSync(file, `${JSON.stringify(latestTimed(results, versions), null, 1)}\n`);
  say(`${file} saved`);
}

/** A matrix's plan: the releases the records lack in at most `slices` slices, { include: [{ driver, from, to, releases }] }. */
async function planSlices(dir, names, { opts, versionsOf }) {
  const lacking = [];
  for (const driver of names) {
    const from = opts.from ?? RECORD_FROM[driver];
    const to = opts.to ?? RECORD_TO[driver] ?? null;
    const published = selectReleases(await versionsOf(driver), { from, to: to ?? '999.999.999', step: 'all', pre: false });
    lacking.push({ driver, ...missingReleases(readRecord(dir, driver).record, published, { from, to }) });
  }
  const total = lacking.reduce((n, l) => n + l.missing.length, 0);
  const include = lacking.flatMap((l) => releaseSlices(l, Math.max(1, Math.round((opts.plan * l.missing.length) / Math.max(1, total))))
    .map((slice) => ({ driver: l.driver, ...slice })));
  return { include };
}

/** Records built apart (a matrix's slices: `record <driver> --from a --to b --dir <slice>`) joined into the records in `dir`. */
function mergeInto(dir, files, say) {
  for (const given of files) {
    let data;
    try { data = JSON.parse(readFileSync(given, 'utf8')); } catch (err) { throw usageError(`--merge ${given}: ${err.code === 'ENOENT' ? 'no such file' : `not JSON (${err.message})`}`, 'give the records the slices wrote'); }
    if (data.format !== RECORD_FORMAT || !RECORD_FROM[data.driver]) throw usageError(`--merge ${given}: not a record (format ${data.format ?? 'none'})`, 'give the records the slices wrote');
    const { file, record } = readRecord(dir, data.driver);
    const joined = mergeRecords(record.releases.length ? record : { ...emptyRecord(data.driver), ...record }, data);
    if (joined.error) throw usageError(`--merge ${given}: ${joined.error}`, 'count every slice with the same server and Node');
    writeFileSync(file, serializeRecord(joined.record));
    say(`${given}: ${data.releases.length} release(s) of ${data.driver} joined into ${file} (${joined.record.releases.length} in all)`);
  }
}

/** Every driver's record in `dir`. */
const recordsIn = (dir) => readdirSync(dir).filter((f) => /^(mysql|mysql2|mariadb)\.json$/.test(f)).map((f) => readRecord(dir, f.replace(/\.json$/, '')).record);

/** What a driver's record now holds, and its steps into the releases just added, on stdout. */
function reportDriver(stdout, driver, record, added) {
  const steps = recordSteps(record);
  const fresh = steps.filter((s) => added.has(s.to));
  stdout.write(`${driver}: ${record.releases.length} releases, ${steps.length} steps; ${fresh.length ? `${fresh.length} new:` : 'no new step'}\n`);
  for (const s of fresh) {
    const fns = s.functions?.length ? ` — ${functionsText(s.functions)}` : '';
    const commit = s.commit?.commit ? ` [${s.commit.commit.slice(0, 7)} ${s.commit.subject}]` : s.commit?.why ? ` [no commit: ${s.commit.why}]` : '';
    stdout.write(`  ${s.bench} ${s.key}: ${s.from} → ${s.to} ${fmtStepChange(s.changePct)}${commit}${fns}\n`);
  }
}

/** The record's runs and bisections, noting one a signal stopped (`stopped()`): it stops the record, what it had saved. */
function signalAware({ run, bisectRun, env, signal }) {
  let signalled = null;
  const noted = (code) => {
    if ([EXIT.INTERRUPTED, EXIT.TERMINATED, EXIT.HUNG_UP].includes(code)) signalled ??= code;
    return code;
  };
  return {
    run: async (request) => {
      const ran = await run({ ...request, env, signal });
      noted(ran.code);
      return ran;
    },
    // A bisection refused (no such tag, not on one line) says its one line and exit code, as the command would.
    bisectRun: async (repo, asked, io) => {
      try {
        return noted(await bisectRun(repo, asked, { ...io, env, signal }));
      } catch (err) {
        return noted(sayError(err, { stderr: io.stderr, debug: asked.debug }));
      }
    },
    stopped: () => signalled,
  };
}

/** The drivers asked for, the --repo map, and the directories, checked: a usage error says what is wrong. */
function recordContext(drivers, opts, { env, stderr }) {
  if (!opts.count && !opts.site && !opts.merge) throw usageError('--no-count counts nothing and --site was not given: there is nothing to do', 'add --site <dir> to build the page from the record');
  const names = drivers.length ? drivers : Object.keys(RECORD_FROM);
  const unknown = names.filter((d) => !RECORD_FROM[d]);
  if (unknown.length) throw usageError(`unknown driver${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, `record ${Object.keys(RECORD_FROM).join(', ')}`);
  for (const [flag, v] of [['--from', opts.from], ['--to', opts.to]]) if (v && !SEMVER.test(v)) throw usageError(`${flag} ${v}: not an exact version (x.y.z)`);
  const repos = Object.fromEntries((opts.repo ?? []).map((spec) => {
    const [driver, repo] = spec.split(/=(.*)/s);
    if (!RECORD_FROM[driver] || !repo) throw usageError(`--repo ${spec}: write <driver>=<dir>, the driver one of ${Object.keys(RECORD_FROM).join(', ')}`);
    openRepository(`--repo ${spec}`, repo);
    return [driver, resolve(repo)];
  }));
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  return {
    opts, names, repos, dir, out: resolve(opts.out ?? join(defaultCacheDir(env), 'record')), stderr,
    say: (line) => { if (!opts.quiet) stderr.write(`${line}\n`); },
    flags: { smoke: Boolean(opts.smoke), quiet: Boolean(opts.quiet) },
    debug: Boolean(opts.debug),
    benches: DESIGN_BENCHES.map((b) => b.name),
  };
}

export function registerRecord(program, { stdout, stderr, env, signal, setExitCode, versionsOf = publishedVersions, runRows: run = runRows, bisect: bisectRun = bisect }) {
  program.command('record')
    .description("each driver's public record: every release since a first one counted on the design benches (instructions and bytes allocated per operation), its steps and their functions; a rerun counts only what the record lacks")
    .argument('[driver...]', 'mysql2, mariadb, mysql (default: all three)')
    .option('--dir <dir>', "the record's directory: one <driver>.json each", 'record')
    .option('--from <version>', `the first release (default: ${Object.entries(RECORD_FROM).map(([d, v]) => `${d} ${v}`).join(', ')})`)
    .option('--to <version>', 'the last release (default: the newest published; mysql: its last 2.x)')
    .option('--limit <n>', 'count at most this many of the missing releases of each driver, oldest first', positiveInteger('--limit'))
    .option('--no-bytes', 'count instructions only, not bytes allocated per operation')
    .option('--repo <driver=dir>', "a driver's git repository (repeatable; e.g. mysql2=../node-mysql2): each step of at least --bisect-min is bisected between its two release tags, and its commit kept", (v, list = []) => [...list, v])
    .option('--bisect-min <pct>', 'with --repo, bisect the steps of at least this many per cent (0: every step beyond its floor)', nonNegativeNumber('--bisect-min'), TIMED_STEP_PCT)
    .option('--no-timed', `time nothing: no replay of a step of ${TIMED_STEP_PCT} % or more, no run of the newest releases side by side (both need a quiet machine)`)
    .option('--plan <slices>', "count nothing: print, as JSON for a CI matrix, the releases the records lack cut into at most this many slices ({ include: [{ driver, from, to, releases }] }), each slice starting at the release before it", positiveInteger('--plan'))
    .option('--merge <file...>', "first join these records, built apart (a matrix's release slices), into the records in --dir")
    .option('--site <dir>', 'then write the record of every driver in --dir as a static page, <dir>/index.html (offline, no server)')
    .option('--no-count', 'count nothing: with --site, build the page from the record as it is')
    .option('-o, --out <dir>', "the count runs' results, profiles and replay sets (default: record/ in the cache directory)")
    .option('--smoke', 'an eighth of the operations counted: that it runs, not figures to keep')
    .option('-q, --quiet', 'no progress lines on stderr')
    .option('--debug', 'print stack traces on errors')
    .addHelpText('after', `
Example: mysql2's releases from 3.22.0, into record/mysql2.json, then again after a new release:
  $ mysql-driver-bench record mysql2 --from 3.22.0
  $ mysql-driver-bench record mysql2 --from 3.22.0      # counts the new release and the one before it`)
    .addHelpText('after', exitCodesHelp('record'))
    .action(async (drivers, opts) => {
      const ctx = { ...recordContext(drivers, opts, { env, stderr }), ...signalAware({ run, bisectRun, env, signal }), versionsOf };
      if (opts.plan) return stdout.write(`${JSON.stringify(await planSlices(ctx.dir, ctx.names, ctx))}\n`);
      if (opts.merge) mergeInto(ctx.dir, opts.merge, ctx.say);
      let code = EXIT.OK;
      for (const driver of opts.count ? ctx.names : []) {
        const { file, record: held } = readRecord(ctx.dir, driver);
        const counted = await countMissing(driver, held, file, ctx);
        if (counted.code !== EXIT.OK) code = counted.code;
        if (ctx.stopped()) return setExitCode(ctx.stopped());
        if (!existsSync(file)) continue;
        let record = counted.record;
        if (ctx.repos[driver]) record = await bisectSteps(driver, record, file, ctx);
        if (opts.timed && !ctx.stopped()) record = await timeSteps(driver, record, file, ctx);
        reportDriver(stdout, driver, record, new Set(counted.missing));
        if (ctx.stopped()) return setExitCode(ctx.stopped());
      }
      if (opts.count && opts.timed && code === EXIT.OK) await timeLatest(ctx.dir, ctx);
      if (ctx.stopped()) return setExitCode(ctx.stopped());
      if (opts.site) {
        const records = recordsIn(ctx.dir);
        if (!records.length) throw usageError(`--site: no record in ${ctx.dir}`, 'record a driver first: mysql-driver-bench record mysql2');
        const site = resolve(opts.site);
        mkdirSync(site, { recursive: true });
        const latestFile = join(ctx.dir, 'latest.json');
        const latest = existsSync(latestFile) ? JSON.parse(readFileSync(latestFile, 'utf8')) : null;
        writeFileSync(join(site, 'index.html'), renderRecordSite(records, { generatedAt: new Date().toISOString(), latest }));
        ctx.say(`the record of ${records.map((r) => r.driver).join(', ')} written to ${join(site, 'index.html')}`);
      }
      setExitCode(code);
    });
}
