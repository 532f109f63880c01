// The GitHub REST API as the action's scripts (pr-comment.js, pr-accepted.js) speak it: Node's own fetch,
// the token sent to the API's origin only and never printed, and what an event says about its pull request.
import { readFileSync } from 'node:fs';

/** An error whose one line is said as it is, with the exit code it ends the script with. */
export class Refused extends Error {
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

/** Pure: is the event's pull request from a fork (its head in another repository, or in one since deleted)? */
export const fromFork = (event) => Boolean(event?.pull_request) && event.pull_request.head?.repo?.full_name !== event.repository?.full_name;

/** Pure: the URL of a Link header's rel="next", or null. */
export function nextLink(header) {
  const m = /<([^>]+)>\s*;\s*rel="next"/.exec(header ?? '');
  return m ? m[1] : null;
}

/** Pure: why a request failed, in a few words: its status and GitHub's message. */
export const why = (r) => `HTTP ${r.status}${r.json?.message ? ` (${r.json.message})` : ''}`;

/** Pure: is a response GitHub's way of saying the token may not (a read-only or scoped token)? */
export const denied = (r) => r.status === 403 || r.status === 404;

/** The job's token, or a Refused (exit 2) saying how to give it. */
export function tokenOf(env) {
  if (!env.GITHUB_TOKEN) throw new Refused('no GITHUB_TOKEN: give the step env GITHUB_TOKEN: ${{ github.token }}', 2);
  return env.GITHUB_TOKEN;
}

/** The API's base URL, from GITHUB_API_URL (GitHub Enterprise) or github.com's. */
export const apiOf = (env) => (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');

/** A GitHub REST client on `api` with `token`: request(method, url, body) → { status, json, link }. */
export function client(api, token) {
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

/** Every item of a listing, page after page (Link: rel="next"); stops at the first answer that is not 200, returned as `failed`. */
export async function listAll(request, url) {
  const items = [];
  for (let next = url; next;) {
    const r = await request('GET', next);
    if (r.status !== 200) return { items, failed: r };
    items.push(...(r.json ?? []));
    next = nextLink(r.link);
  }
  return { items, failed: null };
}

/** The job's event (GITHUB_EVENT_PATH), or a Refused saying why not. */
export function readEvent(env) {
  if (!env.GITHUB_EVENT_PATH) throw new Refused('no GITHUB_EVENT_PATH: run in a GitHub Actions job', 2);
  try {
    return JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch (err) {
    throw new Refused(`GITHUB_EVENT_PATH ${env.GITHUB_EVENT_PATH}: ${err.code ?? err.message}`, 2);
  }
}

/** Run a script's main: its { line, code } printed, a Refused as its one line, a network error as the host it could not reach. */
export function runScript(prefix, main) {
  main(process.argv.slice(2), process.env).then(({ line, code }) => {
    if (line) process.stdout.write(`${line}\n`);
    process.exitCode = code;
  }, (err) => {
    process.stderr.write(`${prefix} ${err instanceof Refused ? err.message : `the GitHub API could not be reached: ${err.cause?.code ?? err.cause?.message ?? err.message}`}\n`);
    process.exitCode = err instanceof Refused ? err.exitCode : 1;
  });
}
