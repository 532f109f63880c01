#!/usr/bin/env node
// Post a driver's gate comment (ci-driver --comment) on its pull request, or update the one posted
// before: one comment a pull request, found by the marker its body holds. Two places run it:
//   node scripts/pr-comment.js <comment.md> [--on-change]
//     in the counting job (a pull_request event); a fork's pull request is left to the second form,
//     its token being read-only;
//   node scripts/pr-comment.js --from-run <dir> [--on-change]
//     in a workflow on workflow_run, which has a write token and never runs the pull request's code:
//     <dir> is the counting run's artifact, whose comment.md is posted as text on the pull request
//     GitHub says that run was for (its head repository, branch and commit), never one the artifact names.
// --on-change: a comment that says nothing moved is posted only over an earlier one (which it corrects).
// From the environment: GITHUB_EVENT_PATH, GITHUB_TOKEN, GITHUB_API_URL.
//
// Exit 0: posted, updated, or nothing to post (one line says which); also when the token may not
// write (one line says so; the job summary holds the report); 1: the API failed otherwise, or the
// artifact's comment is not a gate's; 2: bad usage (no file, no event, no token).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GATE_COMMENT_MARKER, NOTHING_MOVED_MARKER } from '../lib/reporting/gate-markers.js';
import { Refused, apiOf, client, denied, fromFork, listAll, pullRequestOf, readEvent, runScript, tokenOf, why } from './github-api.js';

export { nextLink, pullRequestOf } from './github-api.js';

const PREFIX = 'mysql-driver-bench comment:';
// GitHub refuses a comment body over 65,536 characters.
const MAX_BODY = 65536;
// The comment a counting run leaves in its artifact, for the workflow_run job.
export const ARTIFACT_COMMENT = 'comment.md';

/**
 * Post `body` on pull request `pr` ({ number, repository }), or update the (first) comment whose body
 * holds the marker. `onChange`: a body that says nothing moved updates an earlier comment, and is not
 * posted where there is none. Returns { line, code }.
 */
export async function postComment({ body, pr, env, onChange = false }) {
  const api = apiOf(env);
  const request = client(api, tokenOf(env));
  const where = `${pr.repository}#${pr.number}`;
  const notAllowed = (r, what) => ({
    code: 0,
    line: `${PREFIX} could not ${what} the comment on ${where}: ${why(r)}; the token may not write to the pull request (the workflow lacks permissions: pull-requests: write). The job summary holds the report.`,
  });

  const listed = await listAll(request, `${api}/repos/${pr.repository}/issues/${pr.number}/comments?per_page=100`);
  if (listed.failed) {
    if (denied(listed.failed)) return notAllowed(listed.failed, 'read');
    throw new Refused(`listing the comments of ${where} failed: ${why(listed.failed)}`, 1);
  }
  const mine = listed.items.find((c) => typeof c.body === 'string' && c.body.includes(GATE_COMMENT_MARKER)) ?? null;
  if (onChange && !mine && body.includes(NOTHING_MOVED_MARKER)) {
    return { code: 0, line: `${PREFIX} nothing moved: no comment on ${where} (comment: on-change); the job summary holds the report` };
  }

  // The next run finds this comment by its marker: a body without one gets it.
  const text = body.includes(GATE_COMMENT_MARKER) ? body : `${body}\n${GATE_COMMENT_MARKER}\n`;
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

/**
 * The open pull request a workflow_run event's run counted: the one whose head is that run's head
 * repository, branch and commit, as GitHub's own event says them (the artifact is the pull request's
 * to write, so it names nothing that is trusted). Returns { pr } or { line } saying why there is none.
 */
export async function pullRequestOfRun(event, env) {
  const run = event?.workflow_run;
  if (!run) throw new Refused('the event is not workflow_run: --from-run belongs in a workflow `on: workflow_run`', 2);
  const repository = event.repository?.full_name ?? env.GITHUB_REPOSITORY;
  if (run.event !== 'pull_request') return { line: `${PREFIX} run ${run.id} was for a ${run.event} event, not a pull request: nothing to comment on` };
  if (run.head_repository?.full_name === repository) return { line: `${PREFIX} run ${run.id} was for a pull request from ${repository} itself: its counting job posted the comment` };
  const owner = run.head_repository?.owner?.login;
  if (!owner || !run.head_branch) return { line: `${PREFIX} run ${run.id} names no head repository and branch (a fork since deleted?): nothing to comment on` };
  const api = apiOf(env);
  const request = client(api, tokenOf(env));
  const url = `${api}/repos/${repository}/pulls?state=open&head=${encodeURIComponent(`${owner}:${run.head_branch}`)}&per_page=100`;
  const listed = await listAll(request, url);
  if (listed.failed) throw new Refused(`finding the pull request of run ${run.id} failed: ${why(listed.failed)}`, 1);
  const pr = listed.items.find((p) => p.head?.sha === run.head_sha);
  if (!pr) return { line: `${PREFIX} no open pull request of ${repository} has ${owner}:${run.head_branch} at ${run.head_sha.slice(0, 7)} (pushed again, or closed, since run ${run.id}): nothing to comment on` };
  return { pr: { number: pr.number, repository } };
}

/** The comment a counting run left in its artifact, checked to be a gate's and of a size GitHub takes. */
function artifactComment(dir) {
  let body;
  try { body = readFileSync(join(dir, ARTIFACT_COMMENT), 'utf8'); } catch (err) {
    return { line: `${PREFIX} no ${ARTIFACT_COMMENT} in ${dir} (${err.code ?? err.message}): the counting run stopped before any row was counted, or its artifact was not downloaded; nothing to post` };
  }
  if (!body.includes(GATE_COMMENT_MARKER) || body.length > MAX_BODY) throw new Refused(`${join(dir, ARTIFACT_COMMENT)} is not a gate's comment (no marker, or over ${MAX_BODY} characters): not posted`, 1);
  return { body };
}

async function main(argv, env) {
  const onChange = argv.includes('--on-change');
  const [first, second] = argv.filter((a) => a !== '--on-change');
  const usage = 'usage: node scripts/pr-comment.js <comment.md> | --from-run <artifact dir> [--on-change]';
  if (!first || (first === '--from-run' && !second)) throw new Refused(usage, 2);
  const event = readEvent(env);
  if (first === '--from-run') {
    tokenOf(env);
    const { pr, line } = await pullRequestOfRun(event, env);
    if (!pr) return { line, code: 0 };
    const found = artifactComment(second);
    if (!found.body) return { line: found.line, code: 0 };
    return postComment({ body: found.body, pr, env, onChange });
  }
  let body;
  try { body = readFileSync(first, 'utf8'); } catch (err) { throw new Refused(`${first}: ${err.code ?? err.message}`, 2); }
  const pr = pullRequestOf(event, env);
  if (!pr) throw new Refused('the event is not about a pull request (no pull_request.number in GITHUB_EVENT_PATH): nothing to comment on', 2);
  if (fromFork(event)) {
    return { code: 0, line: `${PREFIX} ${pr.repository}#${pr.number} is a fork's pull request, whose token is read-only: the workflow on workflow_run posts this comment from the artifact (docs/ci.md#fork-pull-requests); the job summary holds the report` };
  }
  return postComment({ body, pr, env, onChange });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) runScript(PREFIX, main);
