// Exit codes with one meaning each: every code lib/, bin/ and scripts/setup.js can return is in the
// README's table, in docs/usage.md's and in the --help of each command that returns it, and no table
// or --help lists a code nothing returns; a tool that is missing and not installable exits 5.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, UserError } from '../../lib/common/errors.js';
import { buildProgram, main } from '../../lib/cli/index.js';
import { assertValgrind } from '../../lib/replay/valgrind.js';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
after(removeIsolatedDirs);

const jsFiles = (dir) => readdirSync(join(root, dir), { recursive: true })
  .filter((f) => f.endsWith('.js')).map((f) => join(dir, f));

// How code returns an exit code: a name of EXIT, or a number given to process.exit, process.exitCode,
// an `exitCode` field or setExitCode.
const NAMED = /\bEXIT\.([A-Z_]+)\b/g;
const LITERAL = [/process\.exit\(\s*(\d+)\s*\)/g, /\bexitCode\s*[:=]\s*(\d+)\b/g, /\bsetExitCode\(\s*(\d+)\s*\)/g];

/** Pure: the exit codes `text` returns, each with the line it is on; names not in EXIT are `unknown`. */
function codesIn(text) {
  const found = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(NAMED)) found.push({ code: EXIT[m[1]], name: m[1], line: lineOf(m.index) });
  for (const re of LITERAL) for (const m of text.matchAll(re)) found.push({ code: Number(m[1]), line: lineOf(m.index) });
  return found;
}

/** Every code the harness can return → where (file:line); EXIT's own values count as returned. */
function returnedCodes() {
  const where = new Map(Object.entries(EXIT).map(([name, code]) => [code, [`lib/common/errors.js (EXIT.${name})`]]));
  const unknown = [];
  // lib/cli/exit-codes.js writes the --help lists this test checks: what they name is not a return.
  const sources = [...jsFiles('lib'), ...jsFiles('bin'), 'scripts/setup.js'].filter((f) => f !== join('lib', 'cli', 'exit-codes.js'));
  for (const file of sources) {
    for (const { code, name, line } of codesIn(readFileSync(join(root, file), 'utf8'))) {
      if (code === undefined) unknown.push(`${file}:${line}: EXIT.${name}`);
      else where.set(code, [...(where.get(code) ?? []), `${file}:${line}`]);
    }
  }
  return { where, unknown };
}

/** Pure: the cells of each row of the table whose header row is `heading` (a line of `md`). */
function tableRows(md, heading) {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  assert.ok(start >= 0, `no line '${heading}'`);
  const rows = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('|')) rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
    else if (rows.length) break;
  }
  return rows.slice(1); // after the --- row
}

/** Pure: the codes a row's first cell names (`130 / 143 / 129`). */
const codesOfCell = (cell) => (cell.match(/\d+/g) ?? []).map(Number);
const tableCodes = (md, heading) => tableRows(md, heading).flatMap(([first]) => codesOfCell(first));

/** What `mysql-driver-bench <command> --help` prints, run in-process. */
async function helpOf(command) {
  let out = '';
  const stdout = { write: (s) => { out += s; return true; } };
  const code = await main(command === 'run' ? ['--help'] : [command, '--help'], { stdout, stderr: stdout });
  assert.equal(code, EXIT.OK, out);
  return out;
}

/** Pure: the codes listed under a --help's `Exit codes:` (`  <code>  <meaning>` lines). */
function helpCodes(help) {
  const [, section] = help.split(/^Exit codes:$/m);
  return section === undefined ? [] : [...section.matchAll(/^ {2}(\d+) {2,}\S/gm)].map((m) => Number(m[1]));
}

const sorted = (codes) => [...new Set(codes)].sort((a, b) => a - b);
const { where, unknown } = returnedCodes();
const RETURNED = sorted([...where.keys()]);

// Every command can return these: bad usage (main), a bug (main), the npm dependencies missing (bin).
const EVERY_COMMAND = [EXIT.OK, EXIT.USAGE, EXIT.INSTALL, EXIT.UNEXPECTED];
// The codes each command returns; a new command says here (and in lib/cli/exit-codes.js) which.
const BY_COMMAND = {
  run: RETURNED,
  aa: RETURNED,
  calibrate: RETURNED,
  compare: [...EVERY_COMMAND, EXIT.ROWS_FAILED],
  report: EVERY_COMMAND,
  merge: [...EVERY_COMMAND, EXIT.ABORTED],
  list: EVERY_COMMAND,
  profile: EVERY_COMMAND,
  'ci-driver': RETURNED,
  bisect: RETURNED,
  // A release that cannot be counted is kept in the record with its reason: not a failure of the command.
  record: RETURNED.filter((c) => c !== EXIT.ROWS_FAILED),
};

const undocumented = (listed) => RETURNED.filter((c) => !listed.includes(c))
  .map((c) => `${c} (returned at ${where.get(c).slice(0, 3).join(', ')}${where.get(c).length > 3 ? ', …' : ''})`);

test('the scan finds the codes: names through EXIT, literal numbers, and none it cannot name', () => {
  assert.deepEqual(codesIn('process.exit(5);\nx.exitCode = 3;\nreturn EXIT.ABORTED;\nsetExitCode(EXIT.NOPE)').map((c) => c.code),
    [EXIT.ABORTED, undefined, 5, 3]);
  assert.deepEqual(unknown, [], 'EXIT names that errors.js does not define');
  for (const code of [0, 1, 2, 3, 4, 5, 70, 130, 143, 129]) assert.ok(RETURNED.includes(code), `${code} not found by the scan`);
  assert.ok(where.get(EXIT.INSTALL).some((w) => w.startsWith('scripts/setup.js:')), 'setup.js exits 5');
  assert.ok(where.get(EXIT.INSTALL).some((w) => w.startsWith('bin/')), 'bin exits 5');
});

for (const [file, heading] of [['README.md', '| exit code | meaning |'], ['docs/usage.md', '| code | meaning | returned by |']]) {
  test(`${file}'s exit-code table holds every code returned, and only those`, () => {
    const listed = tableCodes(readFileSync(join(root, file), 'utf8'), heading);
    assert.deepEqual(undocumented(listed), [], `missing from ${file}'s table`);
    assert.deepEqual(listed.filter((c) => !RETURNED.includes(c)), [], `in ${file}'s table, returned nowhere`);
  });
}

const { program } = buildProgram({ stdout: { write: () => true }, stderr: { write: () => true } });
const COMMANDS = ['run', ...program.commands.map((c) => c.name())];

test("every command's --help lists the codes it returns, and only codes something returns", async () => {
  assert.deepEqual(COMMANDS.filter((c) => !BY_COMMAND[c]), [], 'a command this test does not know: say which codes it returns');
  for (const command of COMMANDS) {
    const listed = helpCodes(await helpOf(command));
    assert.ok(listed.length, `${command} --help has no 'Exit codes:' section`);
    assert.deepEqual(sorted(listed), sorted(BY_COMMAND[command]), `${command} --help`);
    assert.deepEqual(listed.filter((c) => !RETURNED.includes(c)), [], `${command} --help lists a code returned nowhere`);
  }
});

test("docs/usage.md's 'returned by' column names, per code, the commands whose --help lists it", async () => {
  const rows = tableRows(readFileSync(join(root, 'docs/usage.md'), 'utf8'), '| code | meaning | returned by |');
  for (const command of COMMANDS) {
    const documented = rows.filter(([, , by]) => by === 'every command' || by.split(', ').includes(`\`${command}\``))
      .flatMap(([first]) => codesOfCell(first));
    assert.deepEqual(sorted(documented), sorted(helpCodes(await helpOf(command))), `usage.md against ${command} --help`);
  }
});

test('the docs name only codes the harness returns ("exit 3", "exits 1")', () => {
  const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const stray = docs.flatMap((file) => [...readFileSync(join(root, file), 'utf8').matchAll(/\bexits? (\d+)\b/g)]
    .filter((m) => !RETURNED.includes(Number(m[1]))).map((m) => `${file}: ${m[0]}`));
  assert.deepEqual(stray, []);
});

// ---- a tool missing and not installable: exit 5 --------------------------------------------------

test('valgrind missing: assertValgrind throws exit 5, naming the package to install', () => {
  const path = process.env.PATH;
  process.env.PATH = '';
  try {
    assert.throws(() => assertValgrind({}), (err) => err instanceof UserError && err.exitCode === EXIT.INSTALL
      && /^valgrind was not found/.test(err.message) && /apt-get install valgrind/.test(err.hint));
  } finally {
    process.env.PATH = path;
  }
});

test('--count instructions without valgrind on PATH: one line, exit 5, nothing left behind', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--replay', '--count', 'instructions', '--out', out], { env: { PATH: '' }, tmp });
  assert.equal(r.code, EXIT.INSTALL, r.stderr);
  assert.match(r.stderr, /^mysql-driver-bench: error: valgrind was not found: .* — install the Debian\/Ubuntu package valgrind .*\n$/);
  assert.ok(noStackTrace(r.stderr));
  assert.deepEqual(leftovers(tmp), { files: [], processes: [] });
});

test('the npm dependencies missing: one line, exit 5', () => {
  // The entry point copied into a project without node_modules.
  const copy = mkdtempSync(join(tmpdir(), 'mdb-no-deps-'));
  after(() => rmSync(copy, { recursive: true, force: true }));
  mkdirSync(join(copy, 'bin'));
  copyFileSync(join(root, 'bin/mysql-driver-bench.js'), join(copy, 'bin/mysql-driver-bench.js'));
  copyFileSync(join(root, 'package.json'), join(copy, 'package.json'));
  const r = spawnSync(process.execPath, [join(copy, 'bin/mysql-driver-bench.js'), '--help'], { encoding: 'utf8' });
  assert.equal(r.status, EXIT.INSTALL, r.stderr);
  assert.match(r.stderr, /^mysql-driver-bench: error: dependencies are not installed — run `npm ci` in .*\n$/);
});
