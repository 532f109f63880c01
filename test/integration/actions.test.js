// The GitHub files: action.yml, every workflow and the workflows docs/ci.md gives pass
// @action-validator/cli (which refuses a broken copy, so the check can fail); the shortest one is a
// checkout and one step. The action's own scripts run here with bash: the first fetches the history a
// shallow checkout lacks and names the caches, refusing pull_request_target; the count step passes its
// inputs to ci-driver (refused before anything is counted); the comment step posts through
// scripts/pr-comment.js (against a fake GitHub API on loopback) only when ci-driver wrote a comment, and
// leaves a fork's pull request to mode: comment, whose step posts it from the counting run's artifact.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitIn, makeBranchedRepo, makeDriverRepo } from '../helpers/driver-repo.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VALIDATOR = join(root, 'node_modules', '.bin', 'action-validator');
const dir = mkdtempSync(join(tmpdir(), 'mdb-actions-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const validate = (file) => spawnSync(VALIDATOR, [file], { encoding: 'utf8' });
const yamlIn = (d) => readdirSync(d).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(d, f));
const workflows = yamlIn(join(root, '.github', 'workflows'));
const DRIVER_WORKFLOWS = join(root, 'docs', 'workflows');

test('action.yml, the workflows and those ci.md gives a driver pass the validator, which refuses a broken copy', () => {
  for (const file of [join(root, 'action.yml'), ...workflows, ...yamlIn(DRIVER_WORKFLOWS)]) {
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

const PREPARE_STEP = 'Fetch the base and the head, and name the caches';
const COUNT_STEP = 'Count the head against the base';
const COMMENT_STEP = 'Post the report on the pull request, or update its comment';
const FROM_RUN_STEP = "Post the counting run's comment on its pull request";
const UPLOAD_STEP = 'Upload the results, profiles, replay sets and comment';
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
  const inputs = { MDB_BASE: 'v1', MDB_HEAD: 'HEAD', MDB_REPOSITORY: repo.dir, MDB_PACKAGE: '', MDB_BENCHES: 'do select_100_cols', MDB_THRESHOLD: '1', MDB_ARTIFACT: 'mysql-driver-bench-42-1', MDB_LABEL: 'benchmark-accepted' };
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
  assert.match(ACTION, /^  comment:\n(?: {4}.*\n)*? {4}default: on-change\n/m);
  assert.match(ACTION, /^  count:\n(?: {4}.*\n)*? {4}default: instructions\n/m);
  assert.match(ACTION, /pull-requests: write/);
  const count = stepText(COUNT_STEP);
  assert.doesNotMatch(count, /\n {6}continue-on-error:/, "the count step's exit code is the job's");
  assert.doesNotMatch(count, /\n {6}if: .*always\(\)/, 'and it never runs after a failed set-up');
  for (const name of [COMMENT_STEP, UPLOAD_STEP]) {
    assert.match(stepText(name), /\n {6}if: always\(\)/);
    assert.match(stepText(name), /\n {6}continue-on-error: true\n/);
  }
  assert.match(stepText(COMMENT_STEP), /if: always\(\) && inputs\.mode != 'comment' && inputs\.comment != 'false' && github\.event_name == 'pull_request'\n/, 'never on pull_request_target');
  assert.doesNotMatch(ACTION.replace(/^#.*\n/gm, ''), /pull_request_target'/, 'no step runs on pull_request_target');
  assert.match(stepText(UPLOAD_STEP), /uses: actions\/upload-artifact@v4\n {6}with:\n {8}name: \$\{\{ inputs\.artifact \}\}\n {8}path: \$\{\{ runner\.temp \}\}\/\$\{\{ inputs\.artifact \}\}\n/);
  for (const name of [PREPARE_STEP, COUNT_STEP, COMMENT_STEP, FROM_RUN_STEP]) assert.doesNotMatch(stepScript(name), /\$\{\{/, `${name}: an expression in the script's text`);
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
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { repo: { full_name: 'o/driver' } } }, repository: { full_name: 'o/driver' } }));
    const env = { GITHUB_EVENT_PATH: event, GITHUB_TOKEN: 'ghs_x', GITHUB_API_URL: `http://127.0.0.1:${server.address().port}`, MDB_COMMENT: 'always' };
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

test('the shortest workflow a driver needs is a checkout and one step; docs/ci.md gives both workflows as they are', () => {
  const ci = readFileSync(join(root, 'docs', 'ci.md'), 'utf8');
  const shortest = readFileSync(join(DRIVER_WORKFLOWS, 'instructions.yml'), 'utf8');
  const steps = shortest.split('\n').filter((l) => /^ {6}- /.test(l));
  assert.deepEqual(steps, ['      - uses: actions/checkout@v4', '      - uses: mysql-driver-bench/mysql-driver-bench@v1']);
  assert.ok(shortest.trimEnd().split('\n').length <= 10, `${shortest.split('\n').length} lines`);
  for (const file of yamlIn(DRIVER_WORKFLOWS)) assert.ok(ci.includes(`\`\`\`yaml\n${readFileSync(file, 'utf8')}\`\`\``), `ci.md shows ${file} as it is`);
  // The comment workflow never checks out code: only the action, in its comment mode.
  const comment = readFileSync(join(DRIVER_WORKFLOWS, 'instructions-comment.yml'), 'utf8');
  assert.doesNotMatch(comment, /checkout/);
  assert.match(comment, /workflow_run:\n {4}workflows: \[instructions\]/);
});

/** A step's script under bash, with GITHUB_OUTPUT: { status, stdout, stderr, outputs }. */
function runStep(name, env, cwd = root) {
  const output = join(mkdtempSync(join(dir, 'out-')), 'output');
  writeFileSync(output, '');
  const r = spawnSync('bash', ['-e', '-c', stepScript(name)], { cwd, encoding: 'utf8', env: stepEnv({ GITHUB_OUTPUT: output, GITHUB_EVENT_NAME: 'pull_request', ...env }) });
  const outputs = Object.fromEntries(readFileSync(output, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { ...r, outputs };
}

test("the first step fetches what a shallow checkout lacks, finds the merge-base and names the caches; it refuses pull_request_target and skips another label's event", () => {
  const { repo: origin, point, head, tip } = makeBranchedRepo(join(dir, 'origin'));
  // As actions/checkout leaves it: one commit deep (here the head, for GitHub's merge commit).
  const clone = join(dir, 'shallow');
  const cloned = spawnSync('git', ['clone', '-q', '--depth', '1', '--branch', 'pr', `file://${origin.dir}`, clone], { encoding: 'utf8' });
  assert.equal(cloned.status, 0, cloned.stderr);
  assert.equal(gitIn(clone, 'rev-parse', '--is-shallow-repository'), 'true');
  const inputs = { MDB_MODE: 'count', MDB_BASE: tip, MDB_HEAD: head, MDB_REPOSITORY: clone, MDB_COUNT: 'instructions', MDB_LABEL: 'benchmark-accepted', MDB_EVENT_ACTION: 'synchronize', MDB_EVENT_LABEL: '', ImageOS: 'ubuntu24', ImageVersion: '20261123.1' };
  const step = runStep(PREPARE_STEP, inputs);
  assert.equal(step.status, 0, step.stderr);
  assert.equal(gitIn(clone, 'rev-parse', '--is-shallow-repository'), 'false');
  assert.equal(step.outputs['merge-base'], point);
  assert.equal(step.outputs['apt-key'], 'mdb-apt-ubuntu24-20261123.1-x86_64-server-valgrind'.replace('x86_64', spawnSync('uname', ['-m'], { encoding: 'utf8' }).stdout.trim()));
  assert.match(step.outputs['harness-key'], /^mdb-harness-ubuntu24-20261123\.1-\S+-node\d+-[0-9a-f]{16}$/);
  assert.match(step.outputs['deps-prefix'], /^mdb-deps-ubuntu24-.*-node\d+-$/);
  assert.match(step.outputs.started, /^\d+$/);
  assert.equal(step.outputs.skip, undefined);

  const target = runStep(PREPARE_STEP, { ...inputs, GITHUB_EVENT_NAME: 'pull_request_target' });
  assert.equal(target.status, 2);
  assert.match(target.stderr, /^mysql-driver-bench: error: on pull_request_target the count would run the pull request's code with a write token/);
  const otherLabel = runStep(PREPARE_STEP, { ...inputs, MDB_EVENT_ACTION: 'labeled', MDB_EVENT_LABEL: 'docs' });
  assert.equal(otherLabel.status, 0);
  assert.equal(otherLabel.outputs.skip, 'true');
  assert.match(otherLabel.stdout, /the label 'docs' is not 'benchmark-accepted': nothing to count/);
  const ourLabel = runStep(PREPARE_STEP, { ...inputs, MDB_EVENT_ACTION: 'labeled', MDB_EVENT_LABEL: 'benchmark-accepted' });
  assert.equal(ourLabel.outputs.skip, undefined, 'the override applied: counted, and passed');
  const badMode = runStep(PREPARE_STEP, { ...inputs, MDB_MODE: 'counts' });
  assert.equal(badMode.status, 2);
  assert.match(badMode.stderr, /mode: counts — the modes are count and comment/);
});

test("a fork's pull request, simulated: the counting job's comment step asks nothing of the API; mode: comment's step, on workflow_run, posts the artifact's comment", async () => {
  const requests = [];
  const comments = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const send = (status, json) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(json)); };
      if (url.pathname === '/repos/o/driver/pulls') return send(200, [{ number: 7, head: { sha: 'f'.repeat(40), ref: 'faster-parser', repo: { owner: { login: 'contributor' } } } }]);
      if (req.method === 'GET') return send(200, comments);
      comments.push({ id: 1, body: JSON.parse(data).body });
      return send(201, { id: 1, html_url: 'https://github.com/o/driver/pull/7#issuecomment-1' });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const api = `http://127.0.0.1:${server.address().port}`;
    const body = '❌ `execute` needs 112 % more instructions per operation than the base: worse\n\n<!-- mysql-driver-bench gate -->\n';
    const forkEvent = join(dir, 'fork-event.json');
    writeFileSync(forkEvent, JSON.stringify({ pull_request: { number: 7, head: { sha: 'f'.repeat(40), repo: { full_name: 'contributor/driver' } } }, repository: { full_name: 'o/driver' } }));
    writeFileSync(join(runnerTemp, 'mdb-comment.md'), body);
    const step = (name, env) => new Promise((resolve) => {
      execFile('bash', ['-e', '-c', stepScript(name)], { env: stepEnv({ GITHUB_TOKEN: 'ghs_readonly', GITHUB_API_URL: api, ...env }) }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
    });
    const counting = await step(COMMENT_STEP, { GITHUB_EVENT_PATH: forkEvent, MDB_COMMENT: 'on-change' });
    assert.equal(counting.code, 0, counting.stderr);
    assert.match(counting.stdout, /is a fork's pull request, whose token is read-only: the workflow on workflow_run posts this comment from the artifact/);
    assert.deepEqual(requests, []);

    // The second workflow: actions/download-artifact left the counting run's artifact in $RUNNER_TEMP/mdb-from-run.
    mkdirSync(join(runnerTemp, 'mdb-from-run'), { recursive: true });
    writeFileSync(join(runnerTemp, 'mdb-from-run', 'comment.md'), body);
    const runEvent = join(dir, 'workflow-run-event.json');
    writeFileSync(runEvent, JSON.stringify({ action: 'completed', repository: { full_name: 'o/driver' }, workflow_run: { id: 4242, run_attempt: 1, event: 'pull_request', head_sha: 'f'.repeat(40), head_branch: 'faster-parser', head_repository: { full_name: 'contributor/driver', owner: { login: 'contributor' } }, pull_requests: [] } }));
    const posting = await step(FROM_RUN_STEP, { GITHUB_EVENT_PATH: runEvent, GITHUB_TOKEN: 'ghs_write', MDB_COMMENT: 'on-change' });
    assert.equal(posting.code, 0, posting.stderr);
    assert.equal(posting.stdout, 'mysql-driver-bench comment: posted https://github.com/o/driver/pull/7#issuecomment-1\n');
    assert.deepEqual(requests, [
      'GET /repos/o/driver/pulls?state=open&head=contributor%3Afaster-parser&per_page=100',
      'GET /repos/o/driver/issues/7/comments?per_page=100',
      'POST /repos/o/driver/issues/7/comments',
    ]);
    if (process.env.MDB_SHOW_REQUESTS) process.stderr.write(`${requests.join('\n')}\n`);
    assert.deepEqual(comments.map((c) => c.body), [body]);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
