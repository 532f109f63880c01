// The GitHub files: action.yml and every workflow pass @action-validator/cli (which refuses a broken
// copy, so the check can fail), the action's own script passes its inputs to ci-driver as the action
// would (run here with bash, refused before anything is counted), and its comment step posts through
// scripts/pr-comment.js (against a fake GitHub API on loopback) only when ci-driver wrote a comment.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDriverRepo } from '../helpers/driver-repo.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
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

const ACTION = readFileSync(join(root, 'action.yml'), 'utf8');

/** The text of action.yml's step named `name` (from its `- name:` line to the next step). */
function stepText(name) {
  const start = ACTION.indexOf(`    - name: ${name}\n`);
  assert.ok(start >= 0, `no step '${name}' in action.yml`);
  const next = ACTION.indexOf('\n    - ', start + 1);
  return ACTION.slice(start, next < 0 ? undefined : next + 1);
}

/** A step's `run: |` script, as bash gets it. */
function stepScript(name) {
  const text = stepText(name);
  return text.slice(text.indexOf('run: |\n') + 'run: |\n'.length).split('\n').map((l) => l.replace(/^ {8}/, '')).join('\n');
}

const COUNT_STEP = 'Count the head against the base';
const COMMENT_STEP = 'Post the report on the pull request, or update its comment';
const UPLOAD_STEP = 'Upload the results, profiles and replay sets';
const runnerTemp = join(dir, 'runner-temp');
mkdirSync(runnerTemp, { recursive: true });
const stepEnv = (env) => ({ ...process.env, GITHUB_ACTION_PATH: root, RUNNER_TEMP: runnerTemp, MYSQL_DRIVER_BENCH_CACHE: join(dir, 'cache'), ...env });

/** The action's counting step, as bash would run it on a runner. */
function actionStep(env) {
  return spawnSync('bash', ['-e', '-c', stepScript(COUNT_STEP)], { encoding: 'utf8', env: stepEnv(env) });
}

test("the action's script hands its inputs to ci-driver: no base, a ref that does not exist, the same commit, an unknown bench, the wrong package, an unknown count", () => {
  const repo = makeDriverRepo(join(dir, 'mysql2'));
  repo.commit('docs', { 'README.md': 'x\n' });
  const inputs = { MDB_BASE: 'v1', MDB_HEAD: 'HEAD', MDB_REPOSITORY: repo.dir, MDB_PACKAGE: '', MDB_BENCHES: 'do select_100_cols', MDB_THRESHOLD: '1', MDB_ARTIFACT: 'mysql-driver-bench-42-1' };
  // A comment an earlier run of the job left is gone, whatever this one does.
  writeFileSync(join(runnerTemp, 'mdb-comment.md'), 'stale');
  const noBase = actionStep({ ...inputs, MDB_BASE: '' });
  assert.equal(noBase.status, 2);
  assert.equal(noBase.stderr, 'mysql-driver-bench: error: no base commit — run on pull_request, or give the action a base input\n');
  assert.equal(existsSync(join(runnerTemp, 'mdb-comment.md')), false);
  // Not a pull request: head's default (the pull request's head commit) is empty, and HEAD is judged.
  const noHead = actionStep({ ...inputs, MDB_BASE: 'HEAD', MDB_HEAD: '' });
  assert.equal(noHead.status, 2);
  assert.match(noHead.stderr, /--base HEAD and --head HEAD are the same commit/);
  // --out, --comment and --artifact reach ci-driver: an artifact named into --out is refused before the run.
  const artifactInOut = actionStep({ ...inputs, MDB_ARTIFACT: 'mysql-driver-bench/x' });
  assert.equal(artifactInOut.status, 2);
  assert.match(artifactInOut.stderr, /^mysql-driver-bench: error: --artifact .*runner-temp\/mysql-driver-bench\/x is --out's directory or inside it/);
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
  const unknownCount = actionStep({ ...inputs, MDB_COUNT: 'bytes' });
  assert.equal(unknownCount.status, 2, unknownCount.stderr);
  assert.match(unknownCount.stderr, /--count bytes: no such counter; the counters are instructions, cycles, allocations/);
});

test("the action's steps: head defaults to the pull request's head commit; the comment and the upload run always, never fail the job, and take no input into a script", () => {
  assert.match(ACTION, /^  head:\n(?: {4}.*\n)*? {4}default: \$\{\{ github\.event\.pull_request\.head\.sha \}\}\n/m);
  assert.match(ACTION, /^  comment:\n(?: {4}.*\n)*? {4}default: 'true'\n/m);
  assert.match(ACTION, /^  count:\n(?: {4}.*\n)*? {4}default: instructions\n/m);
  assert.match(ACTION, /pull-requests: write/);
  const count = stepText(COUNT_STEP);
  assert.doesNotMatch(count, /\n {6}(continue-on-error|if):/, "the count step's exit code is the job's");
  for (const name of [COMMENT_STEP, UPLOAD_STEP]) {
    assert.match(stepText(name), /\n {6}if: always\(\)/);
    assert.match(stepText(name), /\n {6}continue-on-error: true\n/);
  }
  assert.match(stepText(COMMENT_STEP), /if: always\(\) && inputs\.comment == 'true' && \(github\.event_name == 'pull_request'/);
  assert.match(stepText(UPLOAD_STEP), /uses: actions\/upload-artifact@v4\n {6}with:\n {8}name: \$\{\{ inputs\.artifact \}\}\n {8}path: \$\{\{ runner\.temp \}\}\/\$\{\{ inputs\.artifact \}\}\n/);
  for (const name of [COUNT_STEP, COMMENT_STEP]) assert.doesNotMatch(stepScript(name), /\$\{\{/, `${name}: an expression in the script's text`);
});

test('the comment step posts the comment ci-driver wrote, through a fake GitHub API, and does nothing without one', async () => {
  const posted = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      if (req.method === 'POST') posted.push(JSON.parse(data).body);
      res.end(req.method === 'POST' ? JSON.stringify({ id: 1, html_url: 'https://github.com/o/driver/pull/7#issuecomment-1' }) : '[]');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 }, repository: { full_name: 'o/driver' } }));
    const env = { GITHUB_EVENT_PATH: event, GITHUB_TOKEN: 'ghs_x', GITHUB_API_URL: `http://127.0.0.1:${server.address().port}` };
    const step = () => new Promise((resolve) => {
      execFile('bash', ['-e', '-c', stepScript(COMMENT_STEP)], { env: stepEnv(env) }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
    });
    rmSync(join(runnerTemp, 'mdb-comment.md'), { force: true });
    const none = await step();
    assert.deepEqual(none, { code: 0, stdout: '', stderr: '' });
    writeFileSync(join(runnerTemp, 'mdb-comment.md'), '<!-- mysql-driver-bench gate -->\n✅ fine\n');
    const one = await step();
    assert.equal(one.code, 0, one.stderr);
    assert.equal(one.stdout, 'mysql-driver-bench comment: posted https://github.com/o/driver/pull/7#issuecomment-1\n');
    assert.deepEqual(posted, ['<!-- mysql-driver-bench gate -->\n✅ fine\n']);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
