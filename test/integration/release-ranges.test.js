// Release ranges as rows (`--drivers mysql2@3.0.0..3.24.5:minor`): the grammar, the choice of releases
// from a recorded version list (mysql2's, from `npm view mysql2 versions --json`), and the expansion
// with npm replaced by a fake, so no network is used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  compareVersions, expandReleaseRanges, isReleaseRange, parseReleaseRange, selectReleases,
} from '../../lib/drivers/ranges.js';
import { assertDriverNames } from '../../lib/drivers/index.js';
import { EXIT, UserError } from '../../lib/common/errors.js';
import { noStackTrace, runCli } from '../helpers/cli.js';

const MYSQL2 = JSON.parse(readFileSync(new URL('../fixtures/npm/mysql2-versions.json', import.meta.url), 'utf8'));
const usage = (fn, re) => assert.throws(fn, (e) => e instanceof UserError && e.exitCode === EXIT.USAGE && re.test(e.message));

test('a range is told apart from a release, a tag, a checkout and a git commit', () => {
  for (const s of ['mysql2@3.0.0..3.24.5', 'mysql2@3.0.0..3.24.5:minor', 'mariadb@3.0.0..3.5.4:last-of-minor:pre']) assert.ok(isReleaseRange(s), s);
  for (const s of ['mysql2@3.9.0', 'mysql2@latest', 'mysql2@^3', 'mysql2@file:../x', 'mysql2@git:../a..b#v3', 'mysql2:disableEval=true', './a..js']) assert.ok(!isReleaseRange(s), s);
});

test('parseReleaseRange: package, ends, step and pre-releases', () => {
  assert.deepEqual(parseReleaseRange('mysql2@3.0.0..3.24.5'), { package: 'mysql2', from: '3.0.0', to: '3.24.5', step: 'all', pre: false, spec: 'mysql2@3.0.0..3.24.5' });
  assert.equal(parseReleaseRange('mysql2@3.0.0..3.24.5:minor').step, 'minor');
  assert.equal(parseReleaseRange('mysql2@3.0.0..3.24.5:last-of-minor').step, 'last-of-minor');
  const pre = parseReleaseRange('mysql2@3.0.0..3.24.5:minor:pre');
  assert.deepEqual([pre.step, pre.pre], ['minor', true]);
  assert.equal(parseReleaseRange('mysql@2.17.0..2.18.1').package, 'mysql');
});

test('parseReleaseRange: bad input is one usage error', () => {
  usage(() => parseReleaseRange('mysql2@3.24.5..3.0.0'), /3\.24\.5 comes after 3\.0\.0/);
  usage(() => parseReleaseRange('mysql2@3..3.24.5'), /'3' is not an exact version/);
  usage(() => parseReleaseRange('mysql2@3.0.0..latest'), /'latest' is not an exact version/);
  usage(() => parseReleaseRange('mysql2@3.0.0..3.24.5:every'), /unknown step 'every'/);
  usage(() => parseReleaseRange('mysql2@3.0.0..3.24.5:minor:last-of-minor'), /one step only/);
  usage(() => parseReleaseRange('old=mysql2@3.0.0..3.1.0'), /takes no label/);
  usage(() => assertDriverNames(['mysql2@3.0.0..3.24.5:weekly']), /unknown step 'weekly'/);
  assert.doesNotThrow(() => assertDriverNames(['mysql2@3.0.0..3.24.5:minor', 'mariadb']));
});

test('compareVersions: semver precedence, pre-releases before their release', () => {
  const sorted = ['3.24.5', '3.9.0', '3.10.0', '3.24.5-canary.b1c39c8', '3.2.0', '3.24.5-alpha.10', '3.24.5-alpha.9'].sort(compareVersions);
  assert.deepEqual(sorted, ['3.2.0', '3.9.0', '3.10.0', '3.24.5-alpha.9', '3.24.5-alpha.10', '3.24.5-canary.b1c39c8', '3.24.5']);
});

test('selectReleases on mysql2\'s recorded list: every release, the first and the last of each minor', () => {
  const all = selectReleases(MYSQL2, parseReleaseRange('mysql2@3.0.0..3.24.5'));
  assert.equal(all[0], '3.0.0');
  assert.equal(all.at(-1), '3.24.5');
  assert.equal(all.length, 102);
  assert.ok(all.every((v) => !v.includes('-')), 'no pre-release unless asked');
  assert.deepEqual([...all].sort(compareVersions), all, 'semver order');
  const first = selectReleases(MYSQL2, parseReleaseRange('mysql2@3.0.0..3.24.5:minor'));
  assert.equal(first.length, 25);
  assert.deepEqual(first.slice(0, 3), ['3.0.0', '3.1.0', '3.2.0']);
  assert.equal(first.at(-1), '3.24.0');
  const last = selectReleases(MYSQL2, parseReleaseRange('mysql2@3.0.0..3.24.5:last-of-minor'));
  assert.equal(last.length, 25);
  assert.deepEqual(last.slice(0, 3), ['3.0.1', '3.1.2', '3.2.4']);
  assert.equal(last.at(-1), '3.24.5', 'the range\'s end caps the last minor (3.24.6 is left out)');
  // Inclusive at both ends; pre-releases only when asked.
  assert.deepEqual(selectReleases(MYSQL2, parseReleaseRange('mysql2@3.24.3..3.24.5')), ['3.24.3', '3.24.4', '3.24.5']);
  assert.deepEqual(selectReleases(MYSQL2, parseReleaseRange('mysql2@3.24.3..3.24.5:pre')), ['3.24.3', '3.24.4', '3.24.5-canary.b1c39c8', '3.24.5']);
  assert.deepEqual(selectReleases(MYSQL2, parseReleaseRange('mysql2@3.0.1..3.0.9')), ['3.0.1']);
  assert.deepEqual(selectReleases(MYSQL2, parseReleaseRange('mysql2@9.0.0..9.9.9')), []);
});

/** npm answering `view <pkg> versions --json` from recorded lists; `offline` fails as npm does without a network. */
function fakeNpm({ offline = false } = {}) {
  const calls = [];
  const npm = async (args) => {
    calls.push(args);
    if (offline) return { code: 1, stdout: '', stderr: 'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/mysql2 failed\n' };
    assert.deepEqual(args.slice(2), ['versions', '--json']);
    return { code: 0, stdout: JSON.stringify({ mysql2: MYSQL2, mariadb: ['3.4.0', '3.5.0'] }[args[1]]), stderr: '' };
  };
  return { npm, calls };
}

test('expandReleaseRanges: each range becomes its releases in place; the list is asked once per package', async () => {
  const { npm, calls } = fakeNpm();
  const { specs, ranges } = await expandReleaseRanges(['mysql', 'mysql2@3.20.0..3.24.5:last-of-minor', 'mysql2@3.24.6', 'mysql2@3.0.0..3.2.0:minor'], { npm });
  assert.deepEqual(specs, ['mysql', 'mysql2@3.20.0', 'mysql2@3.21.1', 'mysql2@3.22.6', 'mysql2@3.23.4', 'mysql2@3.24.5', 'mysql2@3.24.6', 'mysql2@3.0.0', 'mysql2@3.1.0', 'mysql2@3.2.0']);
  assert.equal(ranges.length, 2);
  assert.deepEqual(ranges[0].releases, ['3.20.0', '3.21.1', '3.22.6', '3.23.4', '3.24.5']);
  assert.equal(calls.length, 1);
  // No range: npm is not asked.
  const none = fakeNpm();
  assert.deepEqual((await expandReleaseRanges(['mysql2', 'mysql2@3.9.0'], { npm: none.npm })).specs, ['mysql2', 'mysql2@3.9.0']);
  assert.equal(none.calls.length, 0);
});

test('expandReleaseRanges: a range with no release is a usage error; an unreachable registry an install error', async () => {
  await assert.rejects(expandReleaseRanges(['mysql2@9.0.0..9.9.9'], fakeNpm()),
    (e) => e.exitCode === EXIT.USAGE && e.message === 'release range mysql2@9.0.0..9.9.9 holds no published release (pre-releases left out)');
  await assert.rejects(expandReleaseRanges(['mysql2@3.0.0..3.1.0'], fakeNpm({ offline: true })),
    (e) => e.exitCode === EXIT.INSTALL && /cannot list the releases of mysql2 on the npm registry: network request/.test(e.message));
});

test('the CLI: a range written wrong stops the run in one line, exit 2, before anything starts', async () => {
  for (const [spec, words] of [['mysql2@3.24.5..3.0.0', /3\.24\.5 comes after 3\.0\.0/], ['mysql2@3.0.0..3.24.5:weekly', /unknown step 'weekly'/]]) {
    const r = await runCli(['do', '--drivers', spec]);
    assert.equal(r.code, EXIT.USAGE, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, words);
    assert.ok(noStackTrace(r.stderr));
  }
});
