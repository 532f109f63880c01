// scripts/pr-comment.js against a fake GitHub API on loopback (no network): one comment a pull
// request, posted once and then updated; others' comments left alone; a marker comment found on a
// later page; a read-only token (a fork's pull request) said in one line with exit 0; the token never printed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATE_COMMENT_MARKER } from '../../lib/reporting/gate-comment.js';
import { nextLink, pullRequestOf } from '../../scripts/pr-comment.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/pr-comment.js', import.meta.url));
const TOKEN = 'ghs_fakeTokenThatMustNeverBePrinted';
const dir = mkdtempSync(join(tmpdir(), 'mdb-pr-comment-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fake GitHub REST API for one repository's issue comments: `pageSize` comments a page with Link
 * headers; `deny` = { POST: 403 } answers those methods so. Records each request.
 */
async function fakeGitHub({ comments = [], pageSize = 100, deny = {} } = {}) {
  const state = { comments: comments.map((c) => ({ ...c })), requests: [], nextId: 1000 };
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      state.requests.push({ method: req.method, path: url.pathname, page: url.searchParams.get('page'), auth: req.headers.authorization, body: data ? JSON.parse(data) : null });
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
writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, head: { sha: 'c'.repeat(40) } }, repository: { full_name: 'o/driver' } }));

/** The script in a child process (asynchronously: the fake server answers in this one). */
function postWith(api, body, env = {}) {
  const file = join(mkdtempSync(join(dir, 'c-')), 'mdb-comment.md');
  writeFileSync(file, body);
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '### the report\n');
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, file], {
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

test("a read-only token (a fork's pull request): one line, exit 0, the job summary untouched, the token never printed", async () => {
  const api = await fakeGitHub({ deny: { POST: 403 } });
  try {
    const r = await postWith(api, body('❌ REGRESSION: do'));
    assert.equal(r.code, 0);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.split('\n').length, 2, 'one line');
    assert.match(r.stdout, /^mysql-driver-bench comment: could not post the comment on o\/driver#7: HTTP 403 \(Resource not accessible by integration\); .*fork.*pull-requests: write.*job summary/);
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
