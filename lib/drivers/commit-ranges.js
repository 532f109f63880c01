// Commit ranges as rows: `mysql2@git:../node-mysql2#v3.22.6..v3.23.1` is its first commit and each
// first-parent commit after it that changes what the package installs (a shipped file that runs, or the
// production dependency tree), each a git row (git.js), reported as a history (results/history.js).
import { usageError } from '../common/errors.js';
import { fileAt, gitText, openRepository, productionTree, resolveCommit } from './git.js';
import { firstParentPath, isAncestor, subjectOf } from './git-history.js';
import { isInstalledPath } from './shipped-files.js';

const RANGE = /^(?:(mysql|mysql2|mariadb)@)?git:([^#]+)#([^#]*[^#.])\.\.([^#.][^#]*)$/;
const HINT = 'write <driver>@git:<repository>#<from>..<to>, e.g. mysql2@git:../node-mysql2#v3.22.6..v3.23.1';

/** Is `spec` written as a commit range (`mysql2@git:../x#a..b`)? Syntax only. */
export const isCommitRange = (spec) => RANGE.test(spec);

/** `mysql2@git:../x#a..b` -> { package, repo, from, to, spec }. Pure; a usage error for anything else. */
export function parseCommitRange(spec) {
  const m = RANGE.exec(spec);
  if (!m) throw usageError(`'${spec}' is not a commit range`, HINT);
  const [, pkg, repo, from, to] = m;
  return { package: pkg ?? null, repo, from, to, spec };
}

/** A commit's manifest and production dependency tree (productionTree), or nulls when it has no package.json. */
function packageAt(repo, sha) {
  const manifestText = fileAt(repo, sha, 'package.json');
  if (manifestText === null) return { manifest: null, tree: null };
  let manifest;
  try { manifest = JSON.parse(manifestText); } catch { return { manifest: null, tree: null }; }
  const lockText = fileAt(repo, sha, 'npm-shrinkwrap.json') ?? fileAt(repo, sha, 'package-lock.json');
  let lock = null;
  try { lock = lockText ? JSON.parse(lockText) : null; } catch { /* an unreadable lockfile: the ranges decide */ }
  return { manifest, tree: productionTree(manifest, lock) };
}

/** Oldest first: [{ commit, subject }], and how many it passed over (`skipped`). */
export function rangeCommits(range) {
  const repo = openRepository(range.spec, range.repo);
  const from = resolveCommit(range.spec, repo, range.from);
  const to = resolveCommit(range.spec, repo, range.to);
  if (from === to || !isAncestor(repo, from, to)) {
    throw usageError(`${range.spec}: ${range.from} is not an ancestor of ${range.to}`, 'write the older commit first; both on one line of history');
  }
  const path = firstParentPath(repo, from, to);
  const taken = [{ commit: from, subject: subjectOf(repo, from) }];
  let previous = packageAt(repo, from);
  let skipped = 0;
  for (const c of path) {
    const current = packageAt(repo, c.commit);
    const files = current.manifest?.files ?? null;
    const parent = `${c.commit}^1`;
    const changed = (gitText(['-C', repo.dir, 'diff-tree', '--no-commit-id', '--name-only', '-r', parent, c.commit]) ?? '').split('\n').filter(Boolean);
    if (current.tree !== previous.tree || changed.some((p) => isInstalledPath(p, files))) taken.push(c);
    else skipped++;
    previous = current;
  }
  return { repo, commits: taken, skipped };
}

/**
 * --drivers with each commit range replaced by its commits' rows (`mysql2@git:<repo>#<sha>`), in place.
 * Returns { specs, ranges: [{ spec, commits: [sha], skipped }] }. `log` says what each range took.
 */
export function expandCommitRanges(specs, { log = () => {} } = {}) {
  const ranges = [];
  const out = [];
  for (const spec of specs) {
    if (!isCommitRange(spec)) { out.push(spec); continue; }
    const range = parseCommitRange(spec);
    const { commits, skipped } = rangeCommits(range);
    log(`${spec}: ${commits.length} commits (the first and each that changes what the package installs; ${skipped} passed over)`);
    ranges.push({ spec, commits: commits.map((c) => c.commit), subjects: commits.map((c) => c.subject), skipped });
    out.push(...commits.map((c) => `${range.package ? `${range.package}@` : ''}git:${range.repo}#${c.commit}`).filter((s) => !out.includes(s)));
  }
  return { specs: out, ranges };
}
