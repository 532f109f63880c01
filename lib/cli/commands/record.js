// `mysql-driver-bench record [driver...]`: the public record (results/record.js), one file per driver
// in --dir: every release since a stated first one counted on the design benches, in instructions and
// in bytes allocated per operation, replayed from the server's recorded replies. A rerun counts only
// the releases the record lacks (with the one just before them, so that a step into a new release comes
// from one run with its functions), through the run command (a release range, whose steps are confirmed
// and named as any range's).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DESIGN_BENCHES } from '../../../benchs/index.js';
import { EXIT, usageError } from '../../common/errors.js';
import { SEMVER } from '../../common/semver.js';
import { defaultCacheDir } from '../../drivers/versions.js';
import { publishedVersions, selectReleases } from '../../drivers/ranges.js';
import { RECORD_COUNTERS, RECORD_FORMAT, emptyRecord, mergeCount, missingReleases, recordSteps, serializeRecord, stepKey, withCommit } from '../../results/record.js';
import { git, openRepository } from '../../drivers/git.js';
import { positiveInteger } from '../../common/config.js';
import { exitCodesHelp } from '../exit-codes.js';
import { fmtStepChange } from '../../reporting/history.js';
import { functionsText } from '../../reporting/function-name.js';
import { renderRecordSite } from '../../reporting/record-site.js';

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
async function bisectStep(step, { repo, driver, out, flags, run, say }) {
  const [good, bad] = [releaseTag(repo, step.from), releaseTag(repo, step.to)];
  if (!good || !bad) return { why: `no tag ${!good ? step.from : step.to} in the repository` };
  const json = join(out, `bisect-${driver}-${step.key}-${step.bench}-${step.from}-${step.to}.json`);
  const started = Date.now();
  await run(['bisect', repo, '--good', good, '--bad', bad, '--bench', step.bench, '--package', driver, '--count', RECORD_COUNTERS[step.key], '--json', json, '--out', join(out, 'bisect'), ...flags], { stdout: { write: () => true } });
  let answer;
  try { answer = JSON.parse(readFileSync(json, 'utf8')).answer; } catch { answer = null; }
  const found = answer?.found ? { commit: answer.commit, subject: answer.subject } : { why: answer?.why ?? 'the bisection stopped' };
  say(`${driver}: ${step.bench} ${step.key} ${step.from} → ${step.to}: ${found.commit ? `${found.commit.slice(0, 7)} ${found.subject}` : found.why} (${Math.round((Date.now() - started) / 1000)} s)`);
  return found;
}

export function registerRecord(program, { stdout, stderr, env, run, setExitCode, versionsOf = publishedVersions }) {
  program.command('record')
    .description("each driver's public record: every release since a first one counted on the design benches (instructions and bytes allocated per operation), its steps and their functions; a rerun counts only what the record lacks")
    .argument('[driver...]', 'mysql2, mariadb, mysql (default: all three)')
    .option('--dir <dir>', "the record's directory: one <driver>.json each", 'record')
    .option('--from <version>', `the first release (default: ${Object.entries(RECORD_FROM).map(([d, v]) => `${d} ${v}`).join(', ')})`)
    .option('--to <version>', 'the last release (default: the newest published; mysql: its last 2.x)')
    .option('--limit <n>', 'count at most this many of the missing releases of each driver, oldest first', positiveInteger('--limit'))
    .option('--no-bytes', 'count instructions only, not bytes allocated per operation')
    .option('--repo <driver=dir>', "a driver's git repository (repeatable; e.g. mysql2=../node-mysql2): each new step is bisected between its two release tags, and its commit kept", (v, list = []) => [...list, v])
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
      if (!opts.count && !opts.site) throw usageError('--no-count counts nothing and --site was not given: there is nothing to do', 'add --site <dir> to build the page from the record');
      const names = drivers.length ? drivers : Object.keys(RECORD_FROM);
      const unknown = names.filter((d) => !RECORD_FROM[d]);
      if (unknown.length) throw usageError(`unknown driver${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, `record ${Object.keys(RECORD_FROM).join(', ')}`);
      for (const [flag, v] of [['--from', opts.from], ['--to', opts.to]]) if (v && !SEMVER.test(v)) throw usageError(`${flag} ${v}: not an exact version (x.y.z)`);
      const dir = resolve(opts.dir);
      const out = resolve(opts.out ?? join(defaultCacheDir(env), 'record'));
      mkdirSync(dir, { recursive: true });
      const say = (line) => { if (!opts.quiet) stderr.write(`${line}\n`); };
      const flags = [...(opts.smoke ? ['--smoke'] : []), ...(opts.quiet ? ['--quiet'] : []), ...(opts.debug ? ['--debug'] : [])];
      const benches = DESIGN_BENCHES.map((b) => b.name);
      const repos = Object.fromEntries((opts.repo ?? []).map((spec) => {
        const [driver, repo] = spec.split(/=(.*)/s);
        if (!RECORD_FROM[driver] || !repo) throw usageError(`--repo ${spec}: write <driver>=<dir>, the driver one of ${Object.keys(RECORD_FROM).join(', ')}`);
        openRepository(`--repo ${spec}`, repo);
        return [driver, resolve(repo)];
      }));
      let code = EXIT.OK;
      for (const driver of opts.count ? names : []) {
        let { file, record } = readRecord(dir, driver);
        const from = opts.from ?? RECORD_FROM[driver];
        const to = opts.to ?? RECORD_TO[driver] ?? null;
        const published = selectReleases(await versionsOf(driver), { from, to: to ?? '999.999.999', step: 'all', pre: false });
        const { missing, before } = missingReleases(record, published, { from, to, limit: opts.limit ?? Infinity });
        if (!missing.length) {
          say(`${driver}: the record holds every release from ${from}${to ? ` to ${to}` : ''} (${record.releases.length}): nothing to count`);
          continue;
        }
        const first = before ?? missing[0];
        const range = `${driver}@${first}..${missing.at(-1)}`;
        say(`${driver}: ${missing.length} release${missing.length === 1 ? '' : 's'} to add (${missing[0]} … ${missing.at(-1)})${before ? `, counted with ${before}, the one before them` : ''}: ${range}`);
        for (const [key, counter] of Object.entries(RECORD_COUNTERS)) {
          if (key === 'bytes' && !opts.bytes) continue;
          const json = join(out, `${driver}-${key}-${first}-${missing.at(-1)}.json`);
          const started = Date.now();
          const runCode = await run([...benches, '--drivers', range, '--baseline', `${driver}@${first}`, '--replay', '--count', counter, '--out', out, '--json', json, ...flags], { stdout: { write: () => true } });
          if (!existsSync(json)) { code = runCode || EXIT.UNEXPECTED; say(`${driver}: the ${key} count stopped (exit ${runCode}): the record is left as it was`); break; }
          record = mergeCount(record, key, JSON.parse(readFileSync(json, 'utf8')));
          writeFileSync(file, serializeRecord(record));
          say(`${driver}: ${key} of ${missing.length + (before ? 1 : 0)} release(s) counted in ${Math.round((Date.now() - started) / 1000)} s; ${file} saved`);
          if (runCode !== EXIT.OK && runCode !== EXIT.ROWS_FAILED) code = runCode;
        }
        const added = new Set(missing);
        const repoDir = repos[driver];
        if (repoDir) {
          for (const s of recordSteps(record).filter((x) => added.has(x.to) && !x.commit)) {
            const answer = await bisectStep(s, { repo: repoDir, driver, out, flags, run, say });
            record = withCommit(record, stepKey(s.key, s.bench, s.from, s.to), answer);
            writeFileSync(file, serializeRecord(record));
          }
        }
        const steps = recordSteps(record);
        const fresh = steps.filter((s) => added.has(s.to));
        stdout.write(`${driver}: ${record.releases.length} releases, ${steps.length} steps; ${fresh.length ? `${fresh.length} new:` : 'no new step'}\n`);
        for (const s of fresh) {
          const fns = s.functions?.length ? ` — ${functionsText(s.functions)}` : '';
          const commit = s.commit?.commit ? ` [${s.commit.commit.slice(0, 7)} ${s.commit.subject}]` : s.commit?.why ? ` [no commit: ${s.commit.why}]` : '';
          stdout.write(`  ${s.bench} ${s.key}: ${s.from} → ${s.to} ${fmtStepChange(s.changePct)}${commit}${fns}\n`);
        }
      }
      if (opts.site) {
        const records = readdirSync(dir).filter((f) => /^(mysql|mysql2|mariadb)\.json$/.test(f)).map((f) => readRecord(dir, f.replace(/\.json$/, '')).record);
        if (!records.length) throw usageError(`--site: no record in ${dir}`, 'record a driver first: mysql-driver-bench record mysql2');
        const site = resolve(opts.site);
        mkdirSync(site, { recursive: true });
        writeFileSync(join(site, 'index.html'), renderRecordSite(records, { generatedAt: new Date().toISOString() }));
        say(`the record of ${records.map((r) => r.driver).join(', ')} written to ${join(site, 'index.html')}`);
      }
      setExitCode(code);
    });
}
