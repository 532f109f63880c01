#!/usr/bin/env node
// Post a driver's gate comment (ci-driver --comment <file>) on its pull request, or update the one
// posted before: one comment a pull request, found by the marker its body holds. What action.yml
// runs after ci-driver: `node scripts/pr-comment.js <file>`. From the environment: GITHUB_EVENT_PATH
// (the event: pull_request.number, repository.full_name), GITHUB_TOKEN, GITHUB_API_URL (default
// https://api.github.com). Node's own fetch; the token is sent to the API's origin only, never printed.
//
// Exit 0: posted or updated, or not allowed (a fork's pull request gets a read-only token: one line
// says so; the job summary holds the report); 1: the API failed otherwise (one line); 2: bad usage
// (no file, no event with a pull request, no token).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GATE_COMMENT_MARKER } from '../lib/reporting/gate-comment.js';

const PREFIX = 'mysql-driver-bench comment:';

class Refused extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Pure: the pull request (number, owner/name) an event is about, or null. */
export function pullRequestOf(event, env = {}) {
  const number = event?.pull_request?.number ?? (event?.issue?.pull_request ? event.issue.number : undefined);
  const repository = event?.repository?.full_name ?? env.GITHUB_REPOSITORY;
  return Number.isInteger(number) && repository ? { number, repository } : null;
}

/** Pure: the URL of a Link header's rel="next", or null. */
export function nextLink(header) {
  const m = /<([^>]+)>\s*;\s*rel="next"/.exec(header ?? '');
  return m ? m[1] : null;
}

/** A GitHub REST client on `api` with `token`: request(method, url, body) → { status, json }. */
function client(api, token) {
  const origin = new URL(api).origin;
  return async (method, url, body) => {
    // A next page's URL comes from the server: the token goes to the API's own origin only.
    if (new URL(url).origin !== origin) throw new Refused(`${method} ${url}: not on ${origin}; stopped`, 1);
    const res = await fetch(url, {
      method,
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${token}`,
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'mysql-driver-bench',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { /* an error page: its status says enough */ }
    return { status: res.status, json, link: res.headers.get('link') };
  };
}

/** Why a request failed, in a few words: its status and GitHub's message. */
const why = (r) => `HTTP ${r.status}${r.json?.message ? ` (${r.json.message})` : ''}`;

/**
 * Post `body` on the pull request, or update the (first) comment whose body holds the marker.
 * Returns the line to print and the exit code: { line, code }.
 */
export async function postComment({ body, event, env }) {
  const pr = pullRequestOf(event, env);
  if (!pr) throw new Refused('the event is not about a pull request (no pull_request.number in GITHUB_EVENT_PATH): nothing to comment on', 2);
  if (!env.GITHUB_TOKEN) throw new Refused('no GITHUB_TOKEN: give the step env GITHUB_TOKEN: ${{ github.token }}', 2);
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
  const request = client(api, env.GITHUB_TOKEN);
  const where = `${pr.repository}#${pr.number}`;
  const denied = (r) => r.status === 403 || r.status === 404;
  const notAllowed = (r, what) => ({
    code: 0,
    line: `${PREFIX} could not ${what} the comment on ${where}: ${why(r)}; the token may not write to the pull request (a fork's pull request gets a read-only one, or the workflow lacks permissions: pull-requests: write). The job summary holds the report.`,
  });

  let url = `${api}/repos/${pr.repository}/issues/${pr.number}/comments?per_page=100`;
  let mine = null;
  while (url && !mine) {
    const r = await request('GET', url);
    if (r.status !== 200) {
      if (denied(r)) return notAllowed(r, 'read');
      throw new Refused(`listing the comments of ${where} failed: ${why(r)}`, 1);
    }
    mine = (r.json ?? []).find((c) => typeof c.body === 'string' && c.body.includes(GATE_COMMENT_MARKER)) ?? null;
    url = nextLink(r.link);
  }

  // The next run finds this comment by its marker: a body without one gets it.
  const text = body.includes(GATE_COMMENT_MARKER) ? body : `${GATE_COMMENT_MARKER}\n${body}`;
  if (mine) {
    const r = await request('PATCH', `${api}/repos/${pr.repository}/issues/comments/${mine.id}`, { body: text });
    if (r.status === 200) return { code: 0, line: `${PREFIX} updated ${r.json?.html_url ?? `comment ${mine.id} on ${where}`}` };
    if (denied(r)) return notAllowed(r, 'update');
    throw new Refused(`updating comment ${mine.id} on ${where} failed: ${why(r)}`, 1);
  }
  const r = await request('POST', `${api}/repos/${pr.repository}/issues/${pr.number}/comments`, { body: text });
  if (r.status === 201) return { code: 0, line: `${PREFIX} posted ${r.json?.html_url ?? `on ${where}`}` };
  if (denied(r)) return notAllowed(r, 'post');
  throw new Refused(`posting the comment on ${where} failed: ${why(r)}`, 1);
}

async function main(argv, env) {
  const [file] = argv;
  if (!file) throw new Refused('usage: node scripts/pr-comment.js <comment.md> (the file ci-driver --comment wrote)', 2);
  let body;
  let event;
  try { body = readFileSync(file, 'utf8'); } catch (err) { throw new Refused(`${file}: ${err.code ?? err.message}`, 2); }
  if (!env.GITHUB_EVENT_PATH) throw new Refused('no GITHUB_EVENT_PATH: run in a GitHub Actions job on a pull request', 2);
  try { event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')); } catch (err) { throw new Refused(`GITHUB_EVENT_PATH ${env.GITHUB_EVENT_PATH}: ${err.code ?? err.message}`, 2); }
  return postComment({ body, event, env });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), process.env).then(({ line, code }) => {
    process.stdout.write(`${line}\n`);
    process.exitCode = code;
  }, (err) => {
    // A network error's message names the host, never the request's headers.
    process.stderr.write(`${PREFIX} ${err instanceof Refused ? err.message : `the GitHub API could not be reached: ${err.cause?.code ?? err.cause?.message ?? err.message}`}\n`);
    process.exitCode = err instanceof Refused ? err.exitCode : 1;
  });
}
