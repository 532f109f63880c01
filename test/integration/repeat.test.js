// A run anyone can repeat (issue 54): the results record the command line (no password in it) and
// leave the host's name out; --from runs a results file's drivers, benches and settings again, saying
// what differs from the original; a config file gives options, the command line overrides it (and --from).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../../lib/cli/index.js';
import { applyOptionFiles, CONFIG_FILE } from '../../lib/cli/option-files.js';
import { isolatedDirs, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';

after(removeIsolatedDirs);

const FIXTURE = fileURLToPath(new URL('../fixtures/results/replay-client-cost.json', import.meta.url));
const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));
const savedIn = (dir) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));

/** The root command's options after the config file and --from, as the run's action would see them (nothing runs). */
async function resolvedOptions(argv, { cwd }) {
  const { program } = buildProgram({ stdout: { write: () => true }, stderr: { write: () => true }, argv });
  let seen = null;
  program.action((names, _opts, cmd) => {
    const applied = applyOptionFiles(cmd, names, { cwd });
    seen = { ...applied, opts: { ...cmd.opts() } };
  });
  await program.parseAsync(argv, { from: 'user' });
  return seen;
}

test('config file: sets options (the current directory\'s, or --config), a flag overrides it; --from overrides it too', async () => {
  const { base } = isolatedDirs();
  const cwd = join(base, 'cwd');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, CONFIG_FILE), JSON.stringify({ rounds: 4, drivers: ['mysql2', 'mariadb'], latency: true, rttVia: 'proxy' }));
  const byConfig = await resolvedOptions(['do'], { cwd });
  assert.equal(byConfig.configFile, CONFIG_FILE);
  assert.deepEqual([byConfig.opts.rounds, byConfig.opts.drivers, byConfig.opts.latency, byConfig.opts.rttVia], [4, ['mysql2', 'mariadb'], true, 'proxy']);
  const flagged = await resolvedOptions(['do', '--rounds', '9', '--drivers', 'mysql'], { cwd });
  assert.deepEqual([flagged.opts.rounds, flagged.opts.drivers, flagged.opts.latency], [9, ['mysql'], true]);
  // --config names another file, which replaces the current directory's.
  writeFileSync(join(base, 'other.json'), JSON.stringify({ processes: 2 }));
  const other = await resolvedOptions(['do', '--config', join(base, 'other.json')], { cwd });
  assert.deepEqual([other.opts.processes, other.opts.rounds], [2, undefined]);
  // --from over the config file: the fixture's drivers and default lengths; a flag beside --from over both.
  const from = await resolvedOptions(['--from', FIXTURE, '--processes', '3'], { cwd });
  assert.deepEqual(from.opts.drivers, fixture().settings.drivers);
  assert.equal(from.opts.rounds, undefined);
  assert.equal(from.opts.processes, 3);
  assert.deepEqual(from.benchNames, fixture().settings.benches);
  const overridden = await resolvedOptions(['--from', FIXTURE, '--drivers', 'mariadb', 'do'], { cwd });
  assert.deepEqual([overridden.opts.drivers, overridden.opts.baseline, overridden.benchNames], [['mariadb'], undefined, ['do']]);
});

test('an unknown config key, a bad value, or --from a file that is not a results file: exit 2, one line', async () => {
  const { base, tmp, out } = isolatedDirs();
  const cwd = join(base, 'cwd');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, CONFIG_FILE), JSON.stringify({ rounds: 2, roundz: 3 }));
  const unknown = await runCli(['do', '--out', out], { tmp, cwd });
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
  assert.match(unknown.stderr, /^mysql-driver-bench: error: unknown option 'roundz' in config file 'mysql-driver-bench\.config\.json'/);
  writeFileSync(join(base, 'bad.json'), JSON.stringify({ rounds: 'many' }));
  const bad = await runCli(['do', '--config', join(base, 'bad.json'), '--out', out], { tmp });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^mysql-driver-bench: error: config file '.*bad\.json': --rounds must be a whole number/);
  writeFileSync(join(base, 'not-results.json'), JSON.stringify({ hello: 'world' }));
  const notResults = await runCli(['--from', join(base, 'not-results.json'), '--out', out], { tmp });
  assert.equal(notResults.code, 2);
  assert.equal(notResults.stderr.trim().split('\n').length, 1, notResults.stderr);
  assert.match(notResults.stderr, /is not a mysql-driver-bench results file/);
  for (const r of [unknown, bad, notResults]) assert.ok(noStackTrace(r.stderr));
});

test('--smoke run, then --from its file: same drivers, benches and settings; command line recorded without a password; no host', { timeout: 600000 }, async () => {
  const { base, tmp, out } = isolatedDirs();
  const cwd = join(base, 'cwd');
  mkdirSync(cwd, { recursive: true });
  // The config file gives the time and two drivers; the flags give one driver and the rounds.
  writeFileSync(join(cwd, CONFIG_FILE), JSON.stringify({ time: 0.06, rounds: 3, drivers: 'mysql2,mariadb' }));
  const first = await runCli(['do', '--smoke', '--drivers', 'mysql2', '--rounds', '2', '--password', 'Flag-Pw-7c1', '--out', out],
    { tmp, cwd, env: { DB_PASSWORD: 'Env-Pw-9d2' }, timeoutMs: 300000 });
  assert.equal(first.code, 0, first.stderr);
  const [file] = savedIn(out);
  const text = readFileSync(file, 'utf8');
  for (const secret of ['Flag-Pw-7c1', 'Env-Pw-9d2']) assert.ok(!text.includes(secret), `${secret} is in the results file`);
  const a = JSON.parse(text);
  assert.deepEqual(a.command.argv, ['do', '--smoke', '--drivers', 'mysql2', '--rounds', '2', '--password', '***', '--out', out]);
  assert.equal(a.command.config, CONFIG_FILE);
  assert.deepEqual([a.settings.drivers, a.settings.rounds, a.settings.time], [['mysql2'], 2, 0.06]);
  assert.ok(!('host' in a.env), 'env.host is left out');
  // The original as if made elsewhere: another Node and server version, said one line each.
  const moved = structuredClone(a);
  moved.env.node = 'v0.0.1';
  moved.server.version = '0.0.1-MariaDB';
  const movedFile = join(base, 'moved.json');
  writeFileSync(movedFile, JSON.stringify(moved));
  const out2 = join(base, 'results2');
  // Run where the config file is: --from's settings win over it (its two drivers, its rounds).
  const again = await runCli(['--from', movedFile, '--out', out2], { tmp, cwd, timeoutMs: 300000 });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /^--from .*moved\.json: Node differs: v0\.0\.1 then, v\d+\.\d+\.\d+ now$/m);
  assert.match(again.stderr, /^--from .*moved\.json: server differs: \S+ 0\.0\.1-MariaDB then, .+ now$/m);
  assert.doesNotMatch(again.stderr, /CPU model differs|platform differs/);
  const [file2] = savedIn(out2);
  const b = JSON.parse(readFileSync(file2, 'utf8'));
  assert.deepEqual(b.settings, a.settings);
  assert.deepEqual(b.drivers, a.drivers);
  assert.deepEqual(b.benches.map((e) => [e.name, e.concurrency, e.results.map((r) => r.driver)]), a.benches.map((e) => [e.name, e.concurrency, e.results.map((r) => r.driver)]));
  assert.deepEqual(b.command.argv, ['--from', movedFile, '--out', out2]);
  assert.notEqual(b.startedAt, a.startedAt);
});
