// The bad-input and fault matrix: for each case the exit code, one clear line naming cause and fix,
// no stack trace (unless --debug), no password anywhere, nothing left behind. (Cases that need a run
// under way — Ctrl-C, the server killed, a driver throwing — are in cli.test.js and adapters.test.js.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedDirs, runCli, leftovers, removeIsolatedDirs, noStackTrace } from '../helpers/cli.js';
import { useEmbeddedServer } from '../helpers/server.js';

const server = useEmbeddedServer({ database: 'faults_schema' });
after(removeIsolatedDirs);

const oneLine = (text) => text.trim().split('\n').filter((l) => !/^(embedded server|setup):/.test(l));
const savedResults = (out) => {
  try { return readdirSync(out).filter((f) => f.endsWith('.json')); } catch { return []; }
};

function assertCleanFailure(r, tmp, { code, message }) {
  assert.equal(r.code, code, r.stderr);
  const lines = oneLine(r.stderr);
  assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
  assert.match(lines[0], message);
  assert.ok(noStackTrace(r.stderr), 'no stack trace');
  const left = leftovers(tmp);
  assert.deepEqual(left.processes, []);
  assert.deepEqual(left.files, []);
}

const remoteFlags = (user, password, extra = []) => ['--host', server.target.host, '--port', String(server.target.port), '--user', user, '--password', password, ...extra];

test('invalid numbers: exit 2 before anything starts', async () => {
  const cases = [
    [['--concurrency', '0'], /--concurrency must be a whole number of at least 1.*not '0'/],
    [['--time', '-1'], /--time must be a number greater than 0, not '-1'/],
    [['--time', 'abc'], /--time must be a number greater than 0, not 'abc'/],
    [['--rounds', '1.5'], /--rounds must be a whole number of at least 1, not '1.5'/],
    [['--wake', 'sometimes'], /--wake must be 'spin', 'spin:N' or 'none'/],
    [['--rtt', '-3'], /--rtt must be a number of milliseconds/],
  ];
  for (const [args, message] of cases) {
    const { tmp } = isolatedDirs();
    const r = await runCli(['do', ...args], { tmp });
    assertCleanFailure(r, tmp, { code: 2, message });
  }
});

test('an unwritable --out is refused before the run starts', async () => {
  const { tmp, base } = isolatedDirs();
  const file = join(base, 'a-file');
  writeFileSync(file, 'not a directory');
  const r = await runCli(['do', '--out', file], { tmp });
  assertCleanFailure(r, tmp, { code: 2, message: /cannot write results to '.*a-file': ENOTDIR — choose a writable directory with --out/ });
  assert.doesNotMatch(r.stderr, /embedded server/, 'refused before starting a server');
  const r2 = await runCli(['do', '--out', '/proc/mysql-driver-bench'], { tmp });
  assertCleanFailure(r2, tmp, { code: 2, message: /cannot write results to '\/proc\/mysql-driver-bench'/ });
});

test('a host name that does not resolve: exit 3', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--host', 'no-such-host.invalid', '--out', out], { tmp });
  assertCleanFailure(r, tmp, { code: 3, message: /host name 'no-such-host\.invalid' does not resolve — check --host or DB_HOST/ });
  assert.deepEqual(savedResults(out), []);
});

test('a database that does not exist and cannot be created: exit 3, nothing created', async () => {
  const { admin } = server;
  await admin.query("CREATE USER IF NOT EXISTS 'narrow'@'127.0.0.1' IDENTIFIED BY 'Narrow-Pass-31'");
  await admin.query("GRANT ALL PRIVILEGES ON `narrow_schema`.* TO 'narrow'@'127.0.0.1'");
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--smoke', '--out', out, ...remoteFlags('narrow', 'Narrow-Pass-31', ['--database', 'not_granted'])], { tmp });
  assertCleanFailure(r, tmp, { code: 3, message: /cannot create schema 'not_granted': Access denied .* — grant the user CREATE on that schema/ });
  assert.ok(!r.stderr.includes('Narrow-Pass-31'));
  const [{ n }] = await admin.query("SELECT COUNT(*) AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'not_granted'");
  assert.equal(Number(n), 0);
});

test('--debug shows the stack but never the password', async () => {
  const { tmp, out } = isolatedDirs();
  const secret = 'Debug-Secret-Pass-77';
  const r = await runCli(['do', '--debug', '--out', out, ...remoteFlags(server.target.user, secret)], { tmp });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /access denied for user 'bench'/);
  assert.ok(!noStackTrace(r.stderr), 'a stack trace with --debug');
  assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret));
});

test('a least-privilege user runs every bench (or gets a clear n/a), and a same-named table elsewhere is untouched', async () => {
  const { admin } = server;
  // Someone else's table with a bench table's name, in another schema.
  await admin.query('CREATE DATABASE IF NOT EXISTS someone_else');
  await admin.query('CREATE TABLE IF NOT EXISTS someone_else.insert_text (id INT PRIMARY KEY, note VARCHAR(20))');
  await admin.query("REPLACE INTO someone_else.insert_text VALUES (1, 'keep me')");
  const [before] = await admin.query('CHECKSUM TABLE someone_else.insert_text');
  const [ddlBefore] = await admin.query('SHOW CREATE TABLE someone_else.insert_text');

  const password = 'Least-Priv-Pass-42';
  await admin.query(`CREATE USER IF NOT EXISTS 'least'@'127.0.0.1' IDENTIFIED BY '${password}'`);
  await admin.query("GRANT ALL PRIVILEGES ON `least_schema`.* TO 'least'@'127.0.0.1'");
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['--smoke', '--out', out, ...remoteFlags('least', password, ['--database', 'least_schema'])], { tmp, timeoutMs: 240000 });
  assert.equal(r.code, 0, r.stderr);
  const [file] = savedResults(out);
  const json = JSON.parse(readFileSync(join(out, file), 'utf8'));
  for (const bench of json.benches) {
    for (const row of bench.results) {
      assert.ok(row.ok || row.status === 'n/a', `${bench.name} ${row.driver}: ${row.error}`);
    }
  }
  for (const text of [r.stdout, r.stderr, JSON.stringify(json)]) assert.ok(!text.includes(password));

  const [after] = await admin.query('CHECKSUM TABLE someone_else.insert_text');
  const [ddlAfter] = await admin.query('SHOW CREATE TABLE someone_else.insert_text');
  assert.equal(String(after.Checksum), String(before.Checksum));
  assert.equal(ddlAfter['Create Table'], ddlBefore['Create Table']);
  const rows = await admin.query('SELECT * FROM someone_else.insert_text');
  assert.deepEqual(rows.map((x) => ({ ...x })), [{ id: 1, note: 'keep me' }]);
});

test('a schema of the harness name holding tables without the mark is refused', async () => {
  const { admin } = server;
  await admin.query('CREATE DATABASE IF NOT EXISTS not_ours');
  await admin.query('CREATE TABLE IF NOT EXISTS not_ours.precious (id INT)');
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['do', '--smoke', '--out', out, ...remoteFlags(server.target.user, server.target.password, ['--database', 'not_ours'])], { tmp });
  assertCleanFailure(r, tmp, { code: 3, message: /schema 'not_ours' exists and was not created by mysql-driver-bench .* choose another name with --database/ });
  const tables = await admin.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'not_ours'");
  assert.deepEqual(tables.map((t) => t.TABLE_NAME), ['precious']);
});
