// scripts/pr-comment.js and scripts/pr-accepted.js against a fake GitHub API on loopback (no network):
// one comment a pull request, posted once and then updated; others' comments left alone; a marker
// comment found on a later page; a token that may not write said in one line with exit 0; on-change;
// a fork's pull request left by the counting job and posted through workflow_run from its artifact;
// who applied the override label; the token never printed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATE_COMMENT_MARKER, NOTHING_MOVED_MARKER } from '../../lib/reporting/gate-comment.js';
import { nextLink, pullRequestOf } from '../../scripts/pr-comment.js';
import { appliedBy, appliedByEvent } from '../../scripts/pr-accepted.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/pr-comment.js', import.meta.url));
const ACCEPTED = fileURLToPath(new URL('../../scripts/pr-accepted.js', import.meta.url));
const TOKEN = 'ghs_fakeTokenThatMustNeverBePrinted';
const dir = mkdtempSync(join(tmpdir(), 'mdb-pr-comment-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fake GitHub REST API for one repository's issue comments: `pageSize` comments a page with Link
 * headers; `deny` = { POST: 403 } answers those methods so. Records each request.
 */
async function fakeGitHub({ comments = [], pageSize = 100, deny = {}, pulls = [], events = [] } = {}) {
  const state = { comments: comments.map((c) => ({ ...c })), requests: [], nextId: 1000 };
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      state.requests.push({ method: req.method, path: url.pathname, query: url.search, page: url.searchParams.get('page'), auth: req.headers.authorization, body: data ? JSON.parse(data) : null });
      const send = (status, json, headers = {}) => { res.writeHead(status, { 'Content-Type': 'application/json', ...headers }); res.end(JSON.stringify(json)); };
      if (deny[req.method]) return send(deny[req.method], { message: 'Resource not accessible by integration' });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'Bad credentials' });
      const list = /^\/repos\/o\/driver\/issues\/7\/comments$/;
      const one = /^\/repos\/o\/driver\/issues\/comments\/(\d+)$/;
      if (req.method === 'GET' && list.test(url.pathname)) {
        const page = Number(url.searchParams.get('page') ?? 1);
        const last = Math.max(1, Math.ceil(state.comments.length / pageSize));
        const link = page < last ? { Link: `<http://${req.headers.host}${url.pathname}?page=${page + 1}>; rel="next", <http://${req.headers.host}${url.pathname}?page=${last}>; rel="last"` } : {};
        return send(200, state.comments.slice((page - 1) * pageSize, page * pageSize), link);
      }
      if (req.method === 'POST' && list.test(url.pathname)) {
        const c = { id: state.nextId++, body: JSON.parse(data).body, user: { login: 'github-actions[bot]' } };
        state.comments.push(c);
        return send(201, { ...c, html_url: `https://github.com/o/driver/pull/7#issuecomment-${c.id}` });
      }
      if (req.method === 'GET' && url.pathname === '/repos/o/driver/pulls') {
        const [owner, branch] = url.searchParams.get('head').split(':');
        return send(200, pulls.filter((p) => p.state === url.searchParams.get('state') && p.head.repo.owner.login === owner && p.head.ref === branch));
      }
      if (req.method === 'GET' && url.pathname === '/repos/o/driver/issues/7/events') return send(200, events);
      const m = one.exec(url.pathname);
      if (req.method === 'PATCH' && m) {
        const c = state.comments.find((x) => x.id === Number(m[1]));
        if (!c) return send(404, { message: 'Not Found' });
        c.body = JSON.parse(data).body;
        return send(200, { ...c, html_url: `https://github.com/o/driver/pull/7#issuecomment-${c.id}` });
      }
      return send(404, { message: 'Not Found' });
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${server.address().port}`;
  state.close = () => new Promise((r) => server.close(r));
  return state;
}

const event = join(dir, 'event.json');
writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, head: { sha: 'c'.repeat(40), repo: { full_name: 'o/driver' } }, labels: [] }, repository: { full_name: 'o/driver' } }));

/** A script in a child process (asynchronously: the fake server answers in this one). */
function postWith(api, body, env = {}, args = []) {
  const file = join(mkdtempSync(join(dir, 'c-')), 'mdb-comment.md');
  writeFileSync(file, body);
  return scriptWith(SCRIPT, api, [file, ...args], env);
}

function scriptWith(script, api, args, env = {}) {
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '### the report\n');
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH, GITHUB_EVENT_PATH: event, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: api.url, GITHUB_STEP_SUMMARY: summary, ...env },
    }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr, summary: readFileSync(summary, 'utf8') }));
  });
}

const body = (text) => `${GATE_COMMENT_MARKER}\n${text}\n`;

test('the pull request and the next page come from the event and the Link header', () => {
  assert.deepEqual(pullRequestOf({ pull_request: { number: 7 }, repository: { full_name: 'o/driver' } }), { number: 7, repository: 'o/driver' });
  assert.equal(pullRequestOf({ ref: 'refs/heads/main', repository: { full_name: 'o/driver' } }), null);
  assert.equal(nextLink('<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"'), 'https://api.github.com/x?page=2');
  assert.equal(nextLink('<https://api.github.com/x?page=1>; rel="prev"'), null);
  assert.equal(nextLink(null), null);
});

test('the first run posts one comment, the next updates it; a comment by someone else is left alone', async () => {
  const theirs = { id: 1, body: 'LGTM, but please look at the benchmarks', user: { login: 'reviewer' } };
  const api = await fakeGitHub({ comments: [theirs] });
  try {
    const first = await postWith(api, body('❌ REGRESSION: do'));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^mysql-driver-bench comment: posted https:\/\/github\.com\/o\/driver\/pull\/7#issuecomment-1000\n$/);
    assert.equal(api.comments.length, 2);

    const second = await postWith(api, body('✅ mysql-driver-bench: no bench needs more than 1 % more instructions'));
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^mysql-driver-bench comment: updated .*issuecomment-1000\n$/);
    assert.equal(api.comments.length, 2, 'no second comment');
    assert.deepEqual(api.comments[0], theirs, "the reviewer's comment is untouched");
    assert.equal(api.comments[1].body, body('✅ mysql-driver-bench: no bench needs more than 1 % more instructions'));
    assert.deepEqual(api.requests.map((r) => `${r.method} ${r.path}`), [
      'GET /repos/o/driver/issues/7/comments', 'POST /repos/o/driver/issues/7/comments',
      'GET /repos/o/driver/issues/7/comments', 'PATCH /repos/o/driver/issues/comments/1000',
    ]);
    assert.ok(api.requests.every((r) => r.auth === `Bearer ${TOKEN}`));
    for (const r of [first, second]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN));
  } finally {
    await api.close();
  }
});

test('a marker comment on the second page is found and updated, not posted again', async () => {
  const others = Array.from({ length: 3 }, (_, i) => ({ id: i + 1, body: `comment ${i + 1}` }));
  const api = await fakeGitHub({ comments: [...others, { id: 4, body: body('old report') }, { id: 5, body: 'later' }], pageSize: 3 });
  try {
    const r = await postWith(api, body('new report'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(api.requests.map((q) => `${q.method} ${q.path} ${q.page}`), [
      'GET /repos/o/driver/issues/7/comments null', 'GET /repos/o/driver/issues/7/comments 2', 'PATCH /repos/o/driver/issues/comments/4 null',
    ]);
    assert.equal(api.comments.length, 5);
    assert.equal(api.comments[3].body, body('new report'));
  } finally {
    await api.close();
  }
});

test('a token that may not write: one line, exit 0, the job summary untouched, the token never printed', async () => {
  const api = await fakeGitHub({ deny: { POST: 403 } });
  try {
    const r = await postWith(api, body('❌ REGRESSION: do'));
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.split('\n').length, 2, 'one line');
    assert.match(r.stdout, /^mysql-driver-bench comment: could not post the comment on o\/driver#7: HTTP 403 \(Resource not accessible by integration\); .*pull-requests: write.*job summary/);
    assert.ok(!r.stdout.includes(TOKEN));
    assert.equal(r.summary, '### the report\n');
    assert.equal(api.comments.length, 0);
  } finally {
    await api.close();
  }
});

test('an API that fails otherwise, no token, no pull request: one line each, exit 1 or 2', async () => {
  const api = await fakeGitHub({ deny: { GET: 500 } });
  try {
    const failed = await postWith(api, body('x'));
    assert.equal(failed.code, 1);
    assert.equal(failed.stderr, 'mysql-driver-bench comment: listing the comments of o/driver#7 failed: HTTP 500 (Resource not accessible by integration)\n');
    const noToken = await postWith(api, body('x'), { GITHUB_TOKEN: '' });
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /^mysql-driver-bench comment: no GITHUB_TOKEN/);
    const push = join(dir, 'push.json');
    writeFileSync(push, JSON.stringify({ ref: 'refs/heads/main', repository: { full_name: 'o/driver' } }));
    const notPr = await postWith(api, body('x'), { GITHUB_EVENT_PATH: push });
    assert.equal(notPr.code, 2);
    assert.match(notPr.stderr, /not about a pull request/);
    const closed = await fakeGitHub();
    await closed.close();
    const unreachable = await postWith(closed, body('x'));
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^mysql-driver-bench comment: the GitHub API could not be reached: ECONNREFUSED\n$/);
    for (const r of [failed, noToken, notPr, unreachable]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN));
  } finally {
    await api.close();
  }
});

const quietBody = `✅ Nothing moved: no bench needs more than 1 % more instructions per operation than the base (7 benches, 1 min 9 s).\n\n${NOTHING_MOVED_MARKER}\n${GATE_COMMENT_MARKER}\n`;

test('--on-change: nothing moved posts nothing where there is no comment, and corrects one an earlier push left', async () => {
  const none = await fakeGitHub();
  const earlier = await fakeGitHub({ comments: [{ id: 3, body: body('❌ `do` needs 3.25 % more instructions per operation than the base: worse') }] });
  try {
    const quiet = await postWith(none, quietBody, {}, ['--on-change']);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, 'mysql-driver-bench comment: nothing moved: no comment on o/driver#7 (comment: on-change); the job summary holds the report\n');
    assert.deepEqual(none.requests.map((r) => r.method), ['GET'], 'read, never written');
    const corrected = await postWith(earlier, quietBody, {}, ['--on-change']);
    assert.match(corrected.stdout, /updated .*issuecomment-3/);
    assert.equal(earlier.comments[0].body, quietBody);
    const always = await postWith(none, quietBody);
    assert.match(always.stdout, /^mysql-driver-bench comment: posted /, 'without --on-change (comment: always) it is posted');
  } finally {
    await none.close();
    await earlier.close();
  }
});

const FORK_SHA = 'f'.repeat(40);
const forkEvent = join(dir, 'fork-event.json');
writeFileSync(forkEvent, JSON.stringify({ action: 'synchronize', pull_request: { number: 7, head: { sha: FORK_SHA, ref: 'faster-parser', repo: { full_name: 'contributor/driver' } }, labels: [] }, repository: { full_name: 'o/driver' } }));
/** A workflow_run event, as GitHub sends it when the counting workflow's run `id` completed. */
const runEvent = (run) => {
  const file = join(mkdtempSync(join(dir, 'run-')), 'event.json');
  writeFileSync(file, JSON.stringify({
    action: 'completed', repository: { full_name: 'o/driver' },
    workflow_run: { id: 4242, run_attempt: 1, event: 'pull_request', conclusion: 'failure', head_sha: FORK_SHA, head_branch: 'faster-parser', head_repository: { full_name: 'contributor/driver', owner: { login: 'contributor' } }, pull_requests: [], ...run },
  }));
  return file;
};
/** The counting run's artifact as actions/download-artifact leaves it: its comment.md (and what else ci-driver copied). */
const artifactWith = (text) => {
  const at = mkdtempSync(join(dir, 'artifact-'));
  if (text !== null) writeFileSync(join(at, 'comment.md'), text);
  return at;
};

test("a fork's pull request: the counting job (read-only token) makes no request; the workflow_run job posts the artifact's comment on the pull request GitHub names", async () => {
  const pulls = [
    { number: 6, state: 'open', head: { sha: 'e'.repeat(40), ref: 'other', repo: { owner: { login: 'contributor' } } } },
    { number: 7, state: 'open', head: { sha: FORK_SHA, ref: 'faster-parser', repo: { owner: { login: 'contributor' } } } },
  ];
  const api = await fakeGitHub({ pulls });
  const regression = `❌ \`execute\` needs 112 % more instructions per operation than the base: worse\n\n${GATE_COMMENT_MARKER}\n`;
  try {
    const counting = await postWith(api, regression, { GITHUB_EVENT_PATH: forkEvent }, ['--on-change']);
    assert.equal(counting.code, 0, counting.stderr);
    assert.match(counting.stdout, /^mysql-driver-bench comment: o\/driver#7 is a fork's pull request, whose token is read-only: the workflow on workflow_run posts this comment from the artifact/);
    assert.equal(api.requests.length, 0, 'the counting job asks nothing of the API');

    // The artifact claims another pull request: only GitHub's own event decides where the comment goes.
    const artifact = artifactWith(regression);
    writeFileSync(join(artifact, 'pull-request.json'), JSON.stringify({ number: 6 }));
    const posted = await scriptWith(SCRIPT, api, ['--from-run', artifact, '--on-change'], { GITHUB_EVENT_PATH: runEvent({}) });
    assert.equal(posted.code, 0, posted.stderr);
    assert.equal(posted.stdout, 'mysql-driver-bench comment: posted https://github.com/o/driver/pull/7#issuecomment-1000\n');
    assert.deepEqual(api.requests.map((r) => `${r.method} ${r.path}${r.path.endsWith('/pulls') ? r.query : ''}`), [
      'GET /repos/o/driver/pulls?state=open&head=contributor%3Afaster-parser&per_page=100',
      'GET /repos/o/driver/issues/7/comments',
      'POST /repos/o/driver/issues/7/comments',
    ]);
    assert.equal(api.comments[0].body, regression);
    if (process.env.MDB_SHOW_REQUESTS) process.stderr.write(api.requests.map((r) => `${r.method} ${r.path}${r.query}\n`).join(''));

    // Pushed again since: this run's comment is not the pull request's any more.
    const stale = await scriptWith(SCRIPT, api, ['--from-run', artifact], { GITHUB_EVENT_PATH: runEvent({ head_sha: 'd'.repeat(40) }) });
    assert.match(stale.stdout, /no open pull request of o\/driver has contributor:faster-parser at ddddddd .*nothing to comment on\n$/);
    // The repository's own branch, a push's run, a run that left no comment, an artifact that is not a gate's.
    const own = await scriptWith(SCRIPT, api, ['--from-run', artifact], { GITHUB_EVENT_PATH: runEvent({ head_repository: { full_name: 'o/driver', owner: { login: 'o' } } }) });
    assert.match(own.stdout, /from o\/driver itself: its counting job posted the comment/);
    const push = await scriptWith(SCRIPT, api, ['--from-run', artifact], { GITHUB_EVENT_PATH: runEvent({ event: 'push' }) });
    assert.match(push.stdout, /was for a push event, not a pull request/);
    const nothing = await scriptWith(SCRIPT, api, ['--from-run', artifactWith(null)], { GITHUB_EVENT_PATH: runEvent({}) });
    assert.equal(nothing.code, 0);
    assert.match(nothing.stdout, /no comment\.md in .*nothing to post/);
    const forged = await scriptWith(SCRIPT, api, ['--from-run', artifactWith('@everyone look here')], { GITHUB_EVENT_PATH: runEvent({}) });
    assert.equal(forged.code, 1);
    assert.match(forged.stderr, /is not a gate's comment .*not posted/);
    assert.equal(api.comments.length, 1, 'one comment in all');
    for (const r of [counting, posted, stale, own, push, nothing, forged]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN));
  } finally {
    await api.close();
  }
});

test('the override label: who applied it, from the pull request\'s events (a re-run keeps its first event), else from the event', async () => {
  const labeled = (login, name = 'benchmark-accepted') => ({ event: 'labeled', actor: { login }, label: { name } });
  const unlabeled = (login) => ({ event: 'unlabeled', actor: { login }, label: { name: 'benchmark-accepted' } });
  assert.equal(appliedBy([labeled('alice'), labeled('bob', 'docs')], 'benchmark-accepted'), '@alice');
  assert.equal(appliedBy([labeled('alice'), unlabeled('carol')], 'benchmark-accepted'), null, 'removed since');
  assert.equal(appliedBy([labeled('alice'), unlabeled('carol'), labeled('dave')], 'benchmark-accepted'), '@dave');
  assert.equal(appliedByEvent({ action: 'labeled', label: { name: 'benchmark-accepted' }, sender: { login: 'erin' } }, 'benchmark-accepted'), '@erin');
  assert.equal(appliedByEvent({ action: 'synchronize', pull_request: { labels: [{ name: 'benchmark-accepted' }] } }, 'benchmark-accepted'), 'a maintainer');
  assert.equal(appliedByEvent({ action: 'synchronize', pull_request: { labels: [] } }, 'benchmark-accepted'), null);

  const api = await fakeGitHub({ events: [labeled('alice', 'docs'), labeled('maintainer')] });
  const denied = await fakeGitHub({ deny: { GET: 403 } });
  try {
    // The event (synchronize, before the label) has no labels: the events say it was applied since.
    const fromApi = await scriptWith(ACCEPTED, api, ['benchmark-accepted'], {});
    assert.deepEqual([fromApi.code, fromApi.stdout, fromApi.stderr], [0, '@maintainer\n', '']);
    assert.deepEqual(api.requests.map((r) => `${r.method} ${r.path}`), ['GET /repos/o/driver/issues/7/events']);
    const notApplied = await scriptWith(ACCEPTED, api, ['perf-ok'], {});
    assert.equal(notApplied.stdout, '', 'another label: not applied, nothing printed');
    const fallback = await scriptWith(ACCEPTED, denied, ['benchmark-accepted'], {});
    assert.equal(fallback.code, 0);
    assert.equal(fallback.stdout, '');
    assert.match(fallback.stderr, /^mysql-driver-bench accept: the events of o\/driver#7 could not be read \(HTTP 403 .*\): the labels of the event are read\n$/);
    const usage = await scriptWith(ACCEPTED, api, [], {});
    assert.equal(usage.code, 2);
    for (const r of [fromApi, fallback]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN));
  } finally {
    await api.close();
    await denied.close();
  }
});
