// Commit ranges (lib/drivers/commit-ranges.js): the grammar, which changed paths are what a package
// installs, the commits a range takes from a small synthetic repository (the first, then each that
// changes an installed file or the production dependency tree), and the history such a run reports,
// commit by commit with each step's subject.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isInstalledPath } from '../../lib/drivers/shipped-files.js';
import { expandCommitRanges, isCommitRange, parseCommitRange, rangeCommits } from '../../lib/drivers/commit-ranges.js';
import { isReleaseRange } from '../../lib/drivers/ranges.js';
import { releaseHistory } from '../../lib/results/history.js';
import { renderHistoryMarkdown, renderHistoryText } from '../../lib/reporting/history.js';
import { renderVerdictText } from '../../lib/reporting/verdict-text.js';
import { makeDriverRepo } from '../helpers/driver-repo.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-commit-ranges-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a commit range is <driver>@git:<repo>#<from>..<to>; a release range and a plain commit are not', () => {
  assert.deepEqual(parseCommitRange('mysql2@git:../node-mysql2#v3.22.6..v3.23.1'), { package: 'mysql2', repo: '../node-mysql2', from: 'v3.22.6', to: 'v3.23.1', spec: 'mysql2@git:../node-mysql2#v3.22.6..v3.23.1' });
  assert.equal(parseCommitRange('git:.#HEAD~3..HEAD').package, null);
  assert.deepEqual([isCommitRange('mysql2@git:../x#a..b'), isCommitRange('mysql2@git:../x#a'), isCommitRange('mysql2@3.0.0..3.1.0'), isReleaseRange('mysql2@git:../x#a..b')], [true, false, false, false]);
  assert.throws(() => parseCommitRange('mysql2@git:../x#a...b'), /is not a commit range/);
});

test("what a package installs: its `files` (globs too), never type declarations, Markdown or package.json's own text", () => {
  const files = ['lib', 'index.js', 'typings/mysql', 'dist/**/*.js'];
  assert.deepEqual(['lib/parsers/text.js', 'index.js', 'index.d.ts', 'lib/README.md', 'test/x.js', 'package.json', 'typings/mysql/index.d.ts', 'dist/a/b.js', 'dist/a/b.map', 'library.js']
    .map((p) => isInstalledPath(p, files)), [true, true, false, false, false, false, false, true, false, false]);
  // No `files`: all but dot-files, tests, docs and examples.
  assert.deepEqual(['lib/a.js', 'test/a.js', '.github/workflows/ci.yml', 'docs/x.js', 'index.js'].map((p) => isInstalledPath(p, null)), [true, false, false, false, true]);
});

test('a range takes its first commit and each first-parent commit that changes an installed file or the dependency tree', () => {
  const repo = makeDriverRepo(join(dir, 'mysql2'));
  const first = repo.head();
  const code = repo.commit('a change in the parser', { 'lib/parsers/string.js': (t) => `${t}\n// changed\n` });
  repo.commit('docs only', { 'README.md': 'x\n' });
  repo.commit('typings only', { 'index.d.ts': (t) => `${t}\n// typed\n` });
  repo.commit('a script the package does not ship', { 'bench.js': 'x\n' });
  const deps = repo.commit('a runtime dependency', { 'package.json': (t) => JSON.stringify({ ...JSON.parse(t), dependencies: { ...JSON.parse(t).dependencies, 'left-pad': '^1.3.0' } }, null, 2) });
  const last = repo.commit('the release: its version only', { 'package.json': (t) => JSON.stringify({ ...JSON.parse(t), version: '9.9.9' }, null, 2) });
  const range = parseCommitRange(`mysql2@git:${repo.dir}#${first}..${last}`);
  const { commits, skipped } = rangeCommits(range);
  assert.deepEqual(commits.map((c) => c.commit), [first, code, deps]);
  assert.equal(commits[1].subject, 'a change in the parser');
  assert.equal(skipped, 4);
  const expanded = expandCommitRanges(['mysql', range.spec]);
  assert.deepEqual(expanded.specs, ['mysql', ...[first, code, deps].map((c) => `mysql2@git:${repo.dir}#${c}`)]);
  assert.deepEqual(expanded.ranges, [{ spec: range.spec, commits: [first, code, deps], subjects: commits.map((c) => c.subject), skipped: 4 }]);
  assert.throws(() => rangeCommits(parseCommitRange(`mysql2@git:${repo.dir}#${last}..${first}`)), /is not an ancestor of/);
  assert.throws(() => rangeCommits(parseCommitRange(`mysql2@git:${repo.dir}#nope..${first}`)), /no commit 'nope'/);
});

test("a commit range's run reports a commit history: each row by its short id, the steps with the later commit's subject", () => {
  const sha = (c) => c.repeat(40);
  const commits = [sha('a'), sha('b'), sha('c'), sha('d')];
  const subjects = ['chore: release 3.22.6', 'feat: data types', 'docs: a note', 'fix(parser): call typeCast for NULL values'];
  const perOp = [2172000, 2172100, 2172050, 4012000];
  const label = (c) => `mysql2@3.23.0+${c.slice(0, 7)}`;
  const results = {
    drivers: commits.map((c) => ({ name: label(c), package: 'mysql2', version: '3.23.0', git: { repository: '/r', ref: c, commit: c }, options: {} })),
    settings: { baseline: label(commits[0]), releaseRanges: [{ spec: 'mysql2@git:/r#v3.22.6..v3.23.1', commits, subjects, skipped: 6 }], count: { what: 'instructions', noiseFloorPct: 0.1, benchFloorsPct: { execute: 0.5 } } },
    benches: [{ name: 'execute', deltaReference: label(commits[0]), results: commits.map((c, i) => ({ driver: label(c), ok: true, status: 'ok', count: { what: 'instructions', perOp: perOp[i], ops: 48, spreadPct: 0.02 }, deltaPct: 0 })) }],
  };
  const history = releaseHistory(results);
  assert.deepEqual(history.releases, ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'ddddddd']);
  assert.deepEqual(history.benches[0].steps.map((s) => `${s.from}→${s.to}`), ['ccccccc→ddddddd']);
  assert.deepEqual(history.commits.ddddddd, { commit: sha('d'), subject: subjects[3] });
  const text = renderHistoryText(results);
  assert.match(text, /^Commit history: mysql2@git:\/r#v3\.22\.6\.\.v3\.23\.1\n/);
  assert.match(text, /ccccccc → ddddddd fix\(parser\): call typeCast for NULL values +2,172,050 → 4,012,000 +\+84\.7 % +worse/);
  assert.match(text, /aaaaaaa … ddddddd \(4 commits\)/);
  // With the step's functions (run.js reads them from the rows' profiles into results.stepFunctions).
  results.stepFunctions = { execute: { 'ccccccc→ddddddd': [{ name: 'v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*, int)', where: 'node', deltaPerOp: 363000 }, { name: 'readCodeFor', where: '<driver>/lib/parsers/binary_parser.js:30', deltaPerOp: -1200 }] } };
  assert.deepEqual(releaseHistory(results).benches[0].steps[0].functions.map((f) => f.deltaPerOp), [363000, -1200]);
  assert.match(renderHistoryText(results), /the functions that moved most, per step \(instructions\/op\):\n {4}1: v8::internal::JSObject::MigrateToMap \+363,000, readCodeFor \(<driver>\/lib\/parsers\/binary_parser\.js:30\) −1,200\n/);
  assert.match(renderHistoryMarkdown(results), /^- `1: v8::internal::JSObject::MigrateToMap \+363,000, readCodeFor \(<driver>\/lib\/parsers\/binary_parser\.js:30\) −1,200`$/m);
  const verdict = renderVerdictText(results);
  assert.match(verdict, /commit history: its steps, consecutive commits beyond the count's noise floor/);
  assert.match(verdict, /execute: ccccccc → ddddddd \(fix\(parser\): call typeCast for NULL values\): 2,172,050 → 4,012,000/);
});
