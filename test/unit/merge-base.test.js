// A pull request's head is judged against its merge-base with the base, not the base's tip: the
// merge-base of a small repository's branches (one behind master, one made from its tip), its two
// refusals (no common history; a head already in the base), and the words and the results field that
// name the three commits. ci-driver's handler with a stand-in run: test/unit/gate-comment.test.js.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateCommits, judgedCommits } from '../../lib/gate.js';
import { openRepository } from '../../lib/drivers/git.js';
import { mergeBase } from '../../lib/drivers/git-history.js';
import { EXIT, UserError } from '../../lib/common/errors.js';
import { gitIn } from '../helpers/driver-repo.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-merge-base-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A commit of `file` with `text` on the checked-out branch; its id. */
function commit(repo, file, text) {
  writeFileSync(join(repo, file), text);
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', file);
  return gitIn(repo, 'rev-parse', 'HEAD');
}

// main: root → point → tip; pr made from point; unrelated: a root of its own.
const repoDir = join(dir, 'repo');
gitIn(dir, 'init', '-q', '-b', 'main', repoDir);
const root = commit(repoDir, 'a.txt', '1\n');
const point = commit(repoDir, 'a.txt', '2\n');
gitIn(repoDir, 'checkout', '-q', '-b', 'pr');
const pr = commit(repoDir, 'README', 'words\n');
gitIn(repoDir, 'checkout', '-q', 'main');
const tip = commit(repoDir, 'a.txt', '3\n');
const unrelated = gitIn(repoDir, 'commit-tree', `${tip}^{tree}`, '-m', 'a root of its own');
const repo = openRepository('--repo', repoDir);
const names = { base: '--base main', head: '--head pr' };

test("the merge-base of a branch behind master is its branch point, not master's tip; of a head made from the base's tip, that tip", () => {
  assert.equal(mergeBase(repo, tip, pr, names), point);
  assert.equal(mergeBase(repo, point, pr, names), point, 'a base the head is made from is its own merge-base');
  assert.equal(mergeBase(repo, root, tip, names), root);
});

test('no common history, or a head already in the base: a usage error in one line saying what to do', () => {
  const refused = (base, head) => {
    try {
      mergeBase(repo, base, head, names);
    } catch (err) {
      return err;
    }
    return assert.fail('not refused');
  };
  const lonely = refused(unrelated, pr);
  assert.ok(lonely instanceof UserError);
  assert.equal(lonely.exitCode, EXIT.USAGE);
  assert.match(lonely.message, /^--base main and --head pr share no history in .*: no merge-base to judge the head against$/);
  assert.match(lonely.hint, /fetch-depth: 0/);
  const inside = refused(tip, point);
  assert.equal(inside.exitCode, EXIT.USAGE);
  assert.equal(inside.message, `--head pr (${point.slice(0, 7)}) is already in the history of --base main (${tip.slice(0, 7)}): it has no commit of its own to judge`);
  assert.match(inside.hint, /^give the branch to judge as the head/);
  for (const err of [lonely, inside]) assert.doesNotMatch(`${err.message} ${err.hint}`, /\n/);
});

const label = (sha) => `mysql2@3.24.5+${sha.slice(0, 7)}`;
const rows = { base: { label: label(point), commit: point }, head: { label: label(pr), commit: pr } };

test('the verdict names the head, its merge-base and the tip; the tip once when it is the merge-base', () => {
  const [h, p, t] = [pr, point, tip].map((s) => s.slice(0, 7));
  assert.equal(judgedCommits({ ...rows, tip: { ref: 'origin/master', commit: tip } }),
    `**${label(pr)}** (head, ${h}) against its merge-base **${label(point)}** (${p}) with origin/master (tip ${t})`);
  assert.equal(judgedCommits({ ...rows, tip: { ref: 'main', commit: point } }),
    `**${label(pr)}** (head, ${h}) against its merge-base **${label(point)}** (${p}) with main (its tip)`);
  // The action's base is the tip's own id: called the base, not spelt out twice.
  assert.equal(judgedCommits({ ...rows, tip: { ref: tip, commit: tip } }),
    `**${label(pr)}** (head, ${h}) against its merge-base **${label(point)}** (${p}) with the base (tip ${t})`);
  assert.match(judgedCommits({ ...rows, tip: { ref: 'cafe', commit: `cafe${tip.slice(4)}` } }), / with cafe \(tip /, 'a short hex branch name stays a name');
  assert.equal(judgedCommits(rows), `**${label(pr)}** (head, ${h}) against **${label(point)}** (base, ${p})`);
});

test("the results file's gate field: the three commits in full and the ref as given", () => {
  assert.deepEqual(gateCommits({ ...rows, tip: { ref: 'origin/master', commit: tip } }), { head: pr, mergeBase: point, baseTip: tip, baseRef: 'origin/master' });
});
