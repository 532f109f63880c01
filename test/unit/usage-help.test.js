// docs/usage.md against the program's own --help: every flag of every command is in usage.md's part
// for that command, and usage.md names no flag the command does not have. The program is only
// built, never run: its options are read from the commander objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../../lib/cli/index.js';

const usage = readFileSync(fileURLToPath(new URL('../../docs/usage.md', import.meta.url)), 'utf8');
const { program } = buildProgram({ stdout: { write: () => true }, stderr: { write: () => true } });
const commands = [['run', program], ...program.commands.map((c) => [c.name(), c])];

/** The flags a piece of Markdown names: long (`--drivers`) and short (`-d`), `--help` left out. */
function flagsNamed(text) {
  const flags = new Set([...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])/g)].map((m) => m[1]));
  flags.delete('--help');
  flags.delete('-h');
  return flags;
}

/** The flags a command has, as its --help lists them (the implicit --help left out). */
function flagsOf(command) {
  return new Set(command.options.flatMap((o) => [o.long, o.short].filter(Boolean)));
}

/** A level-2 section of usage.md, by its heading. */
function section(heading) {
  const start = usage.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `usage.md has no "## ${heading}" section`);
  const end = usage.indexOf('\n## ', start + 1);
  return usage.slice(start, end < 0 ? usage.length : end);
}

/** usage.md's text for one command: the Options section for run, else its row of the other commands' table. */
function partFor(name) {
  if (name === 'run') return section('Options');
  const rows = section("The other commands' options").split('\n').filter((l) => l.startsWith(`| \`${name} `) || l.startsWith(`| \`${name}\``));
  assert.equal(rows.length, 1, `usage.md's other commands' table has ${rows.length} rows for ${name}, not one`);
  return rows[0];
}

test('the program has the commands usage.md documents, each in its synopsis', () => {
  const synopsis = usage.slice(0, usage.indexOf('\n## '));
  const missing = commands.map(([name]) => name).filter((name) => name !== 'run' && !synopsis.includes(`mysql-driver-bench ${name}`));
  assert.deepEqual(missing, [], `usage.md's synopsis lacks: ${missing.join(', ')}`);
  assert.ok(commands.length >= 10, `only ${commands.length} commands built`);
});

for (const [name, command] of commands) {
  test(`usage.md documents every flag of ${name}, and no flag ${name} lacks`, () => {
    const documented = flagsNamed(partFor(name));
    const real = flagsOf(command);
    const undocumented = [...real].filter((f) => !documented.has(f));
    const unknown = [...documented].filter((f) => !real.has(f));
    assert.deepEqual({ undocumented, unknown }, { undocumented: [], unknown: [] },
      `${name}: usage.md lacks ${undocumented.join(', ') || 'nothing'}; names ${unknown.join(', ') || 'nothing'} that ${name} does not have`);
  });
}

test('every flag usage.md names anywhere is a flag of some command', () => {
  const all = new Set(commands.flatMap(([, c]) => [...flagsOf(c)]));
  const unknown = [...flagsNamed(usage)].filter((f) => !all.has(f));
  assert.deepEqual(unknown, []);
});

test('a flag is found as written in the docs, and a flag that is not there is named', () => {
  assert.deepEqual([...flagsNamed('`-d, --drivers <list>`, `--max-rounds` (8 × `--rounds`), spin:N, a-b, --help')], ['-d', '--drivers', '--max-rounds', '--rounds']);
  const undocumented = [...flagsOf(program)].filter((f) => !flagsNamed('`--drivers`').has(f));
  assert.ok(undocumented.includes('--baseline') && !undocumented.includes('--drivers'));
});
