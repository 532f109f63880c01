// The docs run: every command the README and docs/ show in their shell blocks is parsed by the
// program as it is today (every flag and bench name accepted), and those in blocks marked
// `<!-- docs-test: runnable -->` run with --smoke against an embedded server. A renamed flag fails
// here, not in a reader's terminal. The dated notebook, docs/history/, quotes its commands inline, as
// they were run then: those are parsed too, and one whose spelling changes is given the current
// spelling with a note.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { buildProgram } from '../../lib/cli/index.js';
import { selectBenches } from '../../benchs/index.js';
import { documentedCommands, inlineCommands, programArgv, shellWords } from '../helpers/doc-commands.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { isolatedDirs, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = ['README.md', ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const HISTORY = readdirSync(`${root}docs/history`).filter((f) => f.endsWith('.md')).map((f) => `docs/history/${f}`);
const documented = [
  ...[...DOCS, ...HISTORY].flatMap((file) => documentedCommands(readFileSync(`${root}${file}`, 'utf8')).map((c) => ({ ...c, file }))),
  ...HISTORY.flatMap((file) => inlineCommands(readFileSync(`${root}${file}`, 'utf8')).map((c) => ({ ...c, file }))),
];

/** What the program says of argv when it only parses it (no command runs), or null when it accepts it. */
async function parseOnly(argv) {
  const said = [];
  const sink = { write: (s) => { said.push(s); return true; } };
  const { program } = buildProgram({ stdout: { write: () => true }, stderr: sink });
  const quiet = (command) => { command.action(() => {}); command.commands.forEach(quiet); };
  quiet(program);
  program.action((benches) => { selectBenches(benches); });
  try {
    await program.parseAsync(argv[0] === 'run' ? argv.slice(1) : argv, { from: 'user' });
    return null;
  } catch (err) {
    if (err instanceof CommanderError && ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code)) return null;
    return said.join('').trim() || err.message;
  }
}

test('the docs\' commands are found: a line, a continuation, a pipe, npm and node forms', () => {
  assert.deepEqual(programArgv(shellWords("node bin/mysql-driver-bench.js --smoke --json - | jq '.benches[]'")), ['--smoke', '--json', '-']);
  assert.deepEqual(programArgv(shellWords('npm run benchmark -- do --drivers mysql2@file:../x   # a comment')), ['do', '--drivers', 'mysql2@file:../x']);
  assert.deepEqual(programArgv(shellWords('DB_PORT=<service port> npm run benchmark')), []);
  assert.equal(programArgv(shellWords('npm test')), null);
  const md = '<!-- docs-test: runnable -->\n```sh\nmysql-driver-bench do \\\n  --drivers mysql2\nnpm ci\n```\n';
  assert.deepEqual(documentedCommands(md), [{ line: 3, text: 'mysql-driver-bench do  --drivers mysql2', argv: ['do', '--drivers', 'mysql2'], runnable: true }]);
  assert.deepEqual(inlineCommands('run `mysql-driver-bench do --time 2` and `npm test`\n```\n`mysql-driver-bench x`\n```\n'), [{ line: 1, text: 'mysql-driver-bench do --time 2', argv: ['do', '--time', '2'], runnable: false }]);
  assert.ok(HISTORY.length >= 10 && documented.some((c) => c.file.startsWith('docs/history/')), 'the history\'s commands are checked');
  assert.ok(documented.length >= 30, `only ${documented.length} commands found in ${DOCS.join(', ')}`);
});

test('a renamed flag or bench is caught', async () => {
  assert.match(await parseOnly(['do', '--rounds-per-bench', '4']), /unknown option '--rounds-per-bench'/);
  assert.match(await parseOnly(['no_such_bench']), /unknown bench/);
  assert.equal(await parseOnly(['do', '--rounds', '4']), null);
});

for (const c of documented) {
  test(`${c.file}:${c.line} parses: ${c.text}`, async () => {
    assert.equal(await parseOnly(c.argv), null);
  });
}

const runnable = documented.filter((c) => c.runnable);
if (runnable.length) {
  const state = useEmbeddedServer({ prepare: true });
  after(removeIsolatedDirs);
  for (const c of runnable) {
    test(`${c.file}:${c.line} runs with --smoke: ${c.text}`, async () => {
      const { out, tmp } = isolatedDirs();
      const { host, port, user, password, database } = state.target;
      const env = { DB_HOST: host, DB_PORT: String(port), DB_USER: user, DB_PASSWORD: password, DB_DATABASE: database };
      const args = [...c.argv, ...(c.argv.includes('--smoke') ? [] : ['--smoke']), '--out', out];
      const r = await runCli(args, { env, tmp, timeoutMs: 240000 });
      assert.equal(r.code, 0, `${c.text}\n${r.stderr}`);
    });
  }
}
