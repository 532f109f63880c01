// A repository's history as the gate and bisect walk it: a merge-base, whether one commit is an
// ancestor of another, the first-parent line between two commits, and a commit's subject.
import { usageError } from '../common/errors.js';
import { SHORT, git, gitText } from './git.js';

/** The commit a pull request's head is judged against; `names` (e.g. '--base origin/master') say the two in errors. */
export function mergeBase(repo, base, head, names = { base, head }) {
  const sha = gitText(['-C', repo.dir, 'merge-base', base, head]);
  if (!sha) {
    throw usageError(`${names.base} and ${names.head} share no history in ${repo.dir}: no merge-base to judge the head against`,
      `give the branch the head was made from as the base; a shallow clone lacks the branch point: fetch it (actions/checkout: fetch-depth: 0)`);
  }
  if (sha === head) {
    throw usageError(`${names.head} (${head.slice(0, SHORT)}) is already in the history of ${names.base} (${base.slice(0, SHORT)}): it has no commit of its own to judge`,
      'give the branch to judge as the head, or an older base');
  }
  return sha;
}

/** Whether commit `a` is an ancestor of commit `b` (both full ids; a commit is its own ancestor). */
export function isAncestor(repo, a, b) {
  return git(['-C', repo.dir, 'merge-base', '--is-ancestor', a, b]).code === 0;
}

/** The first-parent commits after `good` up to `bad` (inclusive), oldest first: the line a bisection walks. */
export function firstParentPath(repo, good, bad) {
  const text = gitText(['-C', repo.dir, 'rev-list', '--first-parent', '--ancestry-path', '--format=%H %s', '--no-commit-header', `${good}..${bad}`]);
  if (text === null) throw usageError(`cannot list the commits between ${good.slice(0, SHORT)} and ${bad.slice(0, SHORT)} in ${repo.dir}`, 'check that git rev-list works there (git 2.33 or later)');
  return text.split('\n').filter(Boolean).map((line) => ({ commit: line.slice(0, 40), subject: line.slice(41) })).reverse();
}

export const subjectOf = (repo, sha) => gitText(['-C', repo.dir, 'log', '-1', '--format=%s', sha]) ?? '';
