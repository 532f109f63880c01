#!/usr/bin/env node
// Who applied the override label to the job's pull request, if it is on it now: prints `@login` (or
// `a maintainer` where the API does not say), or nothing when the label is not applied. What the
// action passes to ci-driver --accepted-by. `node scripts/pr-accepted.js <label>`; from the environment:
// GITHUB_EVENT_PATH, GITHUB_TOKEN, GITHUB_API_URL. The pull request's events are read through the API,
// not from the event: a job re-run after the label was applied keeps its first event's labels.
//
// Exit 0 always once started (an API that cannot be read falls back to the event's labels, said on
// stderr); 2: bad usage (no label, no event with a pull request).
import { pathToFileURL } from 'node:url';
import { Refused, apiOf, client, listAll, pullRequestOf, readEvent, runScript, why } from './github-api.js';

const PREFIX = 'mysql-driver-bench accept:';

/** Pure: from a pull request's issue events, oldest first, who applied `label` last if it is on now (`@login`), else null. */
export function appliedBy(events, label) {
  let by = null;
  for (const e of events) {
    if (e.label?.name !== label) continue;
    if (e.event === 'labeled') by = e.actor?.login ? `@${e.actor.login}` : 'a maintainer';
    if (e.event === 'unlabeled') by = null;
  }
  return by;
}

/** Pure: the same from the event alone: its labels, and its sender when the event is that label's being applied. */
export function appliedByEvent(event, label) {
  if (event.action === 'labeled' && event.label?.name === label && event.sender?.login) return `@${event.sender.login}`;
  return (event.pull_request?.labels ?? []).some((l) => l.name === label) ? 'a maintainer' : null;
}

/** { line: who applied it, or '' } and a note for stderr when the API could not say. */
export async function acceptedBy({ label, event, env }) {
  const pr = pullRequestOf(event, env);
  if (!pr) throw new Refused('the event is not about a pull request: no label to read', 2);
  if (!env.GITHUB_TOKEN) return { line: appliedByEvent(event, label) ?? '', note: 'no GITHUB_TOKEN: the labels of the event are read' };
  const api = apiOf(env);
  let listed;
  try {
    listed = await listAll(client(api, env.GITHUB_TOKEN), `${api}/repos/${pr.repository}/issues/${pr.number}/events?per_page=100`);
  } catch (err) {
    return { line: appliedByEvent(event, label) ?? '', note: `the GitHub API could not be reached (${err.cause?.code ?? err.message}): the labels of the event are read` };
  }
  if (listed.failed) return { line: appliedByEvent(event, label) ?? '', note: `the events of ${pr.repository}#${pr.number} could not be read (${why(listed.failed)}): the labels of the event are read` };
  return { line: appliedBy(listed.items, label) ?? '' };
}

async function main(argv, env) {
  const [label] = argv;
  if (!label) throw new Refused('usage: node scripts/pr-accepted.js <label>', 2);
  const { line, note } = await acceptedBy({ label, event: readEvent(env), env });
  if (note) process.stderr.write(`${PREFIX} ${note}\n`);
  return { line, code: 0 };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) runScript(PREFIX, main);
