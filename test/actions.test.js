// The GitHub files: action.yml and every workflow pass @action-validator/cli (which refuses a broken
// copy, so the check can fail), and the action's own script passes its inputs to ci-driver as the
// action would (run here with bash, refused before anything is counted).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDriverRepo } from './helpers/driver-repo.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const VALIDATOR = join(root, 'node_modules', '.bin', 'action-validator');
const dir = mkdtempSync(join(tmpdir(), 'mdb-actions-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const validate = (file) => spawnSync(VALIDATOR, [file], { encoding: 'utf8' });
const workflows = readdirSync(join(root, '.github', 'workflows')).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, '.github', 'workflows', f));

test('action.yml and the workflows pass the validator, which refuses a broken copy', () => {
  for (const file of [join(root, 'action.yml'), ...workflows]) {
    const r = validate(file);
    assert.equal(r.status, 0, `${file}: ${r.stdout}${r.stderr}`);
  }
  // A composite step without its shell, and a job without steps: both refused.
  const brokenAction = join(mkdtempSync(join(dir, 'a-')), 'action.yml');
  writeFileSync(brokenAction, readFileSync(join(root, 'action.yml'), 'utf8').replace(/^ {6}shell: bash\n/m, ''));
  assert.equal(validate(brokenAction).status, 1);
  const brokenWorkflow = join(dir, 'broken.yml');
  writeFileSync(brokenWorkflow, 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n');
  assert.equal(validate(brokenWorkflow).status, 1);
});

/** The action's counting step, as bash would run it on a runner. */
function actionStep(env) {
  const text = readFileSync(join(root, 'action.yml'), 'utf8');
  const script = text.slice(text.lastIndexOf('run: |\n') + 'run: |\n'.length).split('\n').map((l) => l.replace(/^ {8}/, '')).join('\n');
  return spawnSync('bash', ['-e', '-c', script], {
    encoding: 'utf8',
    env: { ...process.env, GITHUB_ACTION_PATH: root, RUNNER_TEMP: join(dir, 'runner-temp'), MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache'), ...env },
  });
}

test("the action's script hands its inputs to ci-driver: no base, a ref that does not exist, the same commit, an unknown bench, the wrong package", () => {
  const repo = makeDriverRepo(join(dir, 'mysql2'));
  repo.commit('docs', { 'README.md': 'x\n' });
  const inputs = { MDB_BASE: 'v1', MDB_HEAD: 'HEAD', MDB_REPOSITORY: repo.dir, MDB_PACKAGE: '', MDB_BENCHES: 'do select_100_cols', MDB_THRESHOLD: '1' };
  const noBase = actionStep({ ...inputs, MDB_BASE: '' });
  assert.equal(noBase.status, 2);
  assert.equal(noBase.stderr, 'mysql-driver-bench: error: no base commit — run on pull_request, or give the action a base input\n');
  const noRef = actionStep({ ...inputs, MDB_BASE: 'v0' });
  assert.equal(noRef.status, 2);
  assert.match(noRef.stderr, /^mysql-driver-bench: error: --base v0: no commit 'v0' in .*\n$/);
  const sameCommit = actionStep({ ...inputs, MDB_HEAD: 'v1' });
  assert.equal(sameCommit.status, 2);
  assert.match(sameCommit.stderr, /are the same commit/);
  const unknownBench = actionStep({ ...inputs, MDB_BENCHES: 'do nope' });
  assert.equal(unknownBench.status, 2);
  assert.match(unknownBench.stderr, /unknown bench: nope/);
  const wrongPackage = actionStep({ ...inputs, MDB_PACKAGE: 'mariadb' });
  assert.equal(wrongPackage.status, 2, wrongPackage.stderr);
  assert.match(wrongPackage.stderr, /holds 'mysql2', not mariadb/);
});
