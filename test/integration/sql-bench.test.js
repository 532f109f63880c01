// --sql and --bench-file end to end through the CLI, against a MariaDB this file starts itself and
// reaches as a server of the user's own (DB_HOST): the example workloads of docs/examples/ (sbtest1
// made smaller) on the three drivers, text and --prepared, every reply checked against the harness's;
// an adapter that alters one value fails its row naming the difference; each bad input is one line,
// exit 2, with nothing left in the schema.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedDirs, leftovers, noStackTrace, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { useEmbeddedServer } from '../helpers/server.js';

const SCHEMA = 'sql_bench_test';
const remote = useEmbeddedServer({ database: SCHEMA });
const examples = fileURLToPath(new URL('../../docs/examples/', import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mdb-sql-test-'));
after(removeIsolatedDirs);
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file of the test's own; the examples' sbtest1 of 100,000 rows made 2,000 here. */
const file = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const small = (name) => file(name, readFileSync(join(examples, name), 'utf8').replaceAll('100000', '2000'));
let sbSetup;
let oltp;
before(() => {
  sbSetup = small('sbtest-setup.sql');
  oltp = small('oltp_read_only.sql');
  file('k.sql', '-- the row of one id, with k\n\\set id random(1, 2000)\nSELECT id, k, c FROM sbtest1 WHERE id = :id\n');
});

const env = () => {
  const { target } = remote;
  return { DB_HOST: target.host, DB_PORT: String(target.port), DB_USER: target.user, DB_PASSWORD: target.password, DB_DATABASE: SCHEMA };
};
async function run(args) {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['--smoke', '--quiet', '--out', out, '--json', '-', ...args], { tmp, env: env() });
  assert.deepEqual(leftovers(tmp), { files: [], processes: [] }, 'nothing left running or in the temp dir');
  return { ...r, json: r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null };
}
const rowsOf = (json, bench) => Object.fromEntries(json.benches.find((b) => b.name === bench).results.map((r) => [r.driver, r]));
const tables = async () => (await remote.admin.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY 1', [SCHEMA])).map((r) => r.t);

test('--sql text: oltp_read_only and a one-row query on the three drivers, checks passing; the altering adapter fails naming the difference', { timeout: 240000 }, async () => {
  const r = await run(['--sql', oltp, '--sql', join(dir, 'k.sql'), '--setup', sbSetup, '--drivers', `mysql,mysql2,mariadb,${fixture('altering-adapter.js')}`]);
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(r.json.benches.map((b) => b.name), ['oltp_read_only', 'k'], 'the --sql benches alone, named after their files');
  const o = rowsOf(r.json, 'oltp_read_only');
  for (const d of ['mysql', 'mysql2', 'mariadb', 'altering-mysql2']) {
    assert.equal(o[d].status, 'ok', `${d}: ${o[d].error}`);
    assert.equal(o[d].protocol, 'text, 16 statements');
  }
  const k = rowsOf(r.json, 'k');
  for (const d of ['mysql', 'mysql2', 'mariadb']) assert.equal(k[d].status, 'ok', `${d}: ${k[d].error}`);
  assert.equal(k['altering-mysql2'].status, 'failed');
  assert.match(k['altering-mysql2'].error, /^statement #1 \(line 3, parameters \[\d+\]\), row 1, column k: expected (\d+), got (\d+)$/);
  const [, want, got] = /expected (\d+), got (\d+)/.exec(k['altering-mysql2'].error);
  assert.equal(Number(got), Number(want) + 1, 'the one value the adapter altered');
  assert.ok((await tables()).includes('sbtest1'), 'the --setup tables are in the harness\'s schema');
  const [{ n }] = await remote.admin.query(`SELECT COUNT(*) AS n FROM \`${SCHEMA}\`.sbtest1`);
  assert.equal(Number(n), 2000);
});

test('a bug in a bench (its plan throws) ends the run with exit 70 in one line, and the benches measured before it are saved', { timeout: 120000 }, async () => {
  const buggy = file('buggy.js', 'export default { name: "buggy", title: "a plan that throws", sql: "DO 1", plan() { throw new TypeError("a bug in the plan"); }, check() {} };\n');
  const r = await run(['do', '--bench-file', buggy, '--drivers', 'mysql2']);
  assert.equal(r.code, 70, r.stderr);
  assert.match(r.stderr, /^mysql-driver-bench: unexpected error: a bug in the plan — run again with --debug for the stack trace, and report it$/m);
  assert.ok(noStackTrace(r.stderr));
  assert.deepEqual(r.json.benches.map((b) => b.name), ['do'], 'the bench measured before the bug is saved');
  assert.equal(r.json.benches[0].results[0].status, 'ok');
  assert.equal(r.json.complete, false);
  assert.equal(r.json.stoppedBy, 'an unexpected error (a bug in the plan)');
});

test('--sql --prepared: binary on mysql2 and mariadb (and a variant with array rows) with checks passing, n/a with the reason on mysql', { timeout: 240000 }, async () => {
  const r = await run(['--sql', oltp, '--setup', sbSetup, '--prepared', '--drivers', 'mysql,mysql2,mariadb,mariadb:rowsAsArray=true']);
  assert.equal(r.code, 0, r.stderr);
  const o = rowsOf(r.json, 'oltp_read_only');
  assert.equal(o.mysql.status, 'n/a');
  assert.match(o.mysql.error, /no prepared statements in this driver/);
  for (const d of ['mysql2', 'mariadb', 'mariadb:rowsAsArray=true']) {
    assert.equal(o[d].status, 'ok', `${d}: ${o[d].error}`);
    assert.equal(o[d].protocol, 'binary, 16 statements');
  }
});

test('the employees example and the example --bench-file on the three drivers: dates, DECIMAL averages and the module\'s own check pass', { timeout: 240000 }, async () => {
  const r = await run(['--sql', join(examples, 'employees.sql'), '--setup', join(examples, 'employees-setup.sql'), '--bench-file', join(examples, 'my-bench.js')]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.benches.map((b) => b.name), ['my_bench', 'employees']);
  for (const bench of ['my_bench', 'employees']) {
    const rows = rowsOf(r.json, bench);
    assert.deepEqual(Object.keys(rows), ['mysql', 'mysql2', 'mariadb']);
    for (const [d, row] of Object.entries(rows)) assert.equal(row.status, 'ok', `${bench} ${d}: ${row.error}`);
  }
});

test('every column type, text and --prepared, on the three drivers: each driver\'s representation equals the reference', { timeout: 240000 }, async () => {
  const args = ['--sql', fixture('sql/types.sql'), '--setup', fixture('sql/types-setup.sql')];
  for (const prepared of [false, true]) {
    const r = await run(prepared ? [...args, '--prepared'] : args);
    assert.equal(r.code, 0, r.stderr);
    const rows = rowsOf(r.json, 'types');
    for (const d of prepared ? ['mysql2', 'mariadb'] : ['mysql', 'mysql2', 'mariadb']) assert.equal(rows[d].status, 'ok', `${prepared ? 'prepared' : 'text'} ${d}: ${rows[d].error}`);
  }
});

test('writes on a server of the user\'s own: refused without --allow-writes, checked by affected rows with it', { timeout: 240000 }, async () => {
  const write = file('bump.sql', '\\set id random(1, 2000)\nSELECT c FROM sbtest1 WHERE id = :id;\nUPDATE sbtest1 SET k = k + 1 WHERE id = :id;\n');
  const before = await tables();
  const [{ sum: sumBefore }] = await remote.admin.query(`SELECT SUM(k) AS sum FROM \`${SCHEMA}\`.sbtest1`);
  const refused = await run(['--sql', write]);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /^mysql-driver-bench: error: .*bump\.sql:3: refused: this statement writes \(UPDATE\) and the server is your own — add --allow-writes/);
  assert.ok(noStackTrace(refused.stderr));
  assert.deepEqual(await tables(), before);
  const [{ sum: unchanged }] = await remote.admin.query(`SELECT SUM(k) AS sum FROM \`${SCHEMA}\`.sbtest1`);
  assert.equal(String(unchanged), String(sumBefore), 'nothing written');

  const allowed = await run(['--sql', write, '--allow-writes', '--drivers', 'mysql2,mariadb']);
  assert.equal(allowed.code, 0, allowed.stderr);
  for (const [d, row] of Object.entries(rowsOf(allowed.json, 'bump'))) assert.equal(row.status, 'ok', `${d}: ${row.error}`);
  const [{ sum: after }] = await remote.admin.query(`SELECT SUM(k) AS sum FROM \`${SCHEMA}\`.sbtest1`);
  assert.ok(Number(after) > Number(sumBefore), 'the drivers wrote (the reference pass was rolled back)');
});

test('bad input: one line, exit 2, no stack trace, nothing left in the schema', { timeout: 240000 }, async () => {
  const setupNew = file('new-setup.sql', 'CREATE TABLE refused_t (id INT PRIMARY KEY);\nINSERT INTO refused_t SELECT seq FROM seq_1_to_10;\n');
  const cases = [
    [['--sql', file('syntax.sql', 'SELECT id FROM refused_t;\n\nSELECT id FROM refused_t WHERE;\n'), '--setup', setupNew], /syntax\.sql:3: the server refused this statement: You have an error in your SQL syntax.*near '' at line 1$/],
    [['--sql', file('unknown.sql', 'SELECT id FROM no_such_table\n'), '--setup', setupNew], /unknown\.sql:1: the server refused this statement: Table '.*no_such_table' doesn't exist/],
    [['--sql', file('bad-setup.sql', 'SELECT 1'), '--setup', file('broken-setup.sql', 'CREATE TABLE refused_t (id INT);\nCREATE TABLE oops (;\n')], /broken-setup\.sql:2: the server refused this statement: /],
    [['--sql', file('gauss.sql', '\\set id random(1, 9)\n\\set x gaussian(1, 9)\nSELECT :id, :x\n')], /gauss\.sql:2: unknown \\set function gaussian — use random\(lo, hi\) or one_of/],
    [['--sql', file('hole.sql', '\\set id random(1, 9)\nSELECT :id, :idx\n')], /hole\.sql:2: placeholder :idx has no value — add a line \\set idx/],
    [['--sql', file('other.sql', '\\set id random(1, 9)\nINSERT INTO mysql.t VALUES (:id)\n'), '--allow-writes'], /other\.sql:2: refused: the harness works only in its own schema sql_bench_test, and it names schema mysql/],
    [['--bench-file', file('not-a-bench.js', 'export default { name: "Not OK", title: "t", sql: "DO 1", plan() {} };\n')], /not-a-bench\.js: its default export is not a bench: name must match \[a-z0-9_\]\+; check\(result\) must be a function/],
    [['--bench-file', file('throws.js', 'throw new Error("broken on load");\n')], /throws\.js: cannot load it: broken on load/],
    [['--bench-file', join(dir, 'missing.js')], /missing\.js: no such file/],
    [['--sql', join(examples, 'oltp_read_only.sql'), '--bench-file', file('do.js', "export { default } from '" + fileURLToPath(new URL('../../benchs/do.js', import.meta.url)) + "';\n")], /a bench named do exists already/],
    [['--prepared'], /--prepared applies to --sql benches, and none is given/],
  ];
  const before = await tables();
  for (const [args, message] of cases) {
    const r = await run(args);
    const what = args.join(' ');
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
    assert.match(lines[0], /^mysql-driver-bench: error: /);
    assert.match(lines[0], message, what);
    assert.ok(noStackTrace(r.stderr));
    assert.deepEqual(await tables(), before, `${what}: nothing left in the schema`);
  }
});
