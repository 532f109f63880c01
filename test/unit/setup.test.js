// The set-up script's steps: two lines per step on success, the log's last lines only on failure.
// Fake commands (node -e) stand in for npm ci and apt-get.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastLines, fmtSeconds, runLoggedStep, setupLogDir } from '../../lib/server/setup-steps.js';

const logDir = mkdtempSync(join(tmpdir(), 'mdb-setup-test-'));
after(() => rmSync(logDir, { recursive: true, force: true }));

const node = (script) => [process.execPath, ['-e', script]];
const noisy = (n, exitCode = 0) => node(`for (let i = 1; i <= ${n}; i++) console.log('progress ' + i + ' %'); console.error('a warning'); process.exit(${exitCode})`);
const step = (commands) => ({ doing: 'installing things', how: 'fake, a moment', done: 'things installed', logName: 'fake.log', commands });

function capture() {
  const lines = [];
  return { lines, say: (line) => lines.push(line) };
}

test('a step that succeeds prints two lines, and its whole output is in the log', () => {
  const { lines, say } = capture();
  assert.equal(runLoggedStep(step([noisy(300), noisy(200)]), { say, logDir }), true);
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.equal(lines[0], `installing things (fake, a moment)… full log: ${join(logDir, 'fake.log')}`);
  assert.match(lines[1], /^things installed in \d+ s$/);
  const log = readFileSync(join(logDir, 'fake.log'), 'utf8');
  assert.equal(log.match(/progress \d+ %/g).length, 500);
  assert.match(log, /a warning/);
});

test('a step that fails stops at the failing command and prints the last 20 lines of its log', () => {
  const { lines, say } = capture();
  const never = node("console.log('never run')");
  assert.equal(runLoggedStep(step([noisy(5), noisy(100, 100), never]), { say, logDir }), false);
  assert.match(lines[1], new RegExp(`^installing things failed after \\d+ s \\(.+ exited with code 100\\); the last 20 lines of ${join(logDir, 'fake.log').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:$`));
  assert.deepEqual(lines.slice(2), [...Array.from({ length: 19 }, (_, i) => `  | progress ${82 + i} %`), '  | a warning']);
  assert.doesNotMatch(readFileSync(join(logDir, 'fake.log'), 'utf8'), /never run/);
});

test('a command that is not installed is a failed step, named', () => {
  const { lines, say } = capture();
  assert.equal(runLoggedStep(step([['no-such-command-mdb', []]]), { say, logDir }), false);
  assert.match(lines[1], /\(no-such-command-mdb not found\)/);
});

test('helpers: the last non-empty lines (\\r-rewritten progress counts), whole seconds, a per-user log folder', () => {
  assert.deepEqual(lastLines('a\nb\r\nc\rd\n\n', 3), ['b', 'c', 'd']);
  assert.deepEqual(lastLines('', 3), []);
  assert.equal(fmtSeconds(200), '1 s');
  assert.equal(fmtSeconds(47600), '48 s');
  assert.ok(setupLogDir().startsWith(tmpdir()));
});
