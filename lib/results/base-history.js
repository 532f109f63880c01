// The base branch's stored history that ci-driver's fences come from (fences.js): read from a history
// file, or from a count run's results over a commit range, and the merge-base's figures added after
// each gate. A history counted otherwise (another counter, Node, server or harness) is started again.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../common/errors.js';
import { gitText } from '../drivers/git.js';
import { HISTORY_FORMAT, benchFences, countingOf, emptyHistory, historyCommits, sameCounting, withCommits } from './fences.js';

const firstParentLine = (repoDir, commit) => (gitText(['-C', repoDir, 'rev-list', '--first-parent', '--reverse', commit]) ?? '').split('\n').filter(Boolean);

/**
 * `source`: 'history' (rewritten after the gate), 'results' (a count run's, only read) or 'new'; `why`
 * says in a line why a history was set aside.
 */
export function readBaseHistory(file, { results, driver, repoDir, mergeBase }) {
  const counted = countingOf(results);
  const line = firstParentLine(repoDir, mergeBase);
  if (!existsSync(file)) return { history: emptyHistory(driver, counted), line, source: 'new', why: null };
  let data;
  try { data = JSON.parse(readFileSync(file, 'utf8')); } catch (err) { throw usageError(`--history ${file}: not JSON (${err.message})`, 'give a history file ci-driver wrote, or a count run\'s results over a commit range'); }
  const isResults = Array.isArray(data.benches) && Array.isArray(data.drivers);
  if (!isResults && data.format !== HISTORY_FORMAT) throw usageError(`--history ${file}: neither a base history nor a results file (format ${data.format ?? 'none'})`, 'give a history file ci-driver wrote, or a count run\'s results over a commit range');
  const [source, stored] = isResults ? ['results', { counted: countingOf(data), commits: historyCommits(data) }] : ['history', data];
  if (!sameCounting(stored.counted, counted)) {
    const what = ['counter', 'node', 'server', 'harness'].filter((k) => (stored.counted?.[k] ?? null) !== (counted[k] ?? null)).map((k) => `${k} ${stored.counted?.[k] ?? 'none'} → ${counted[k] ?? 'none'}`);
    return { history: emptyHistory(driver, counted), line, source: source === 'results' ? 'results' : 'new', why: `its figures were counted otherwise (${what.join(', ')}): started again` };
  }
  return { history: withCommits({ ...emptyHistory(driver, counted), commits: stored.commits }, [], line), line, source, why: null };
}

/** Each bench's fence from `history`, in the form results.gate.fences keeps: { commits, benches }. */
export const gateFences = (history) => ({ commits: history.commits.length, benches: benchFences(history) });

/** The history with the merge-base's figures from this run added, written to `file` (a history file, never a results file). */
export function keepBaseHistory(file, { history, line, source, results, mergeBase }) {
  if (source === 'results') return null;
  const base = historyCommits(results).find((c) => c.commit === mergeBase);
  const kept = withCommits(history, base ? [base] : [], line);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(kept, null, 1)}\n`);
  return kept;
}
