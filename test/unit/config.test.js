import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConnection, positiveInteger, positiveNumber, splitList, DEFAULT_SCHEMA } from '../../lib/common/config.js';
import { UserError } from '../../lib/common/errors.js';

test('no host or socket anywhere: the embedded server, default schema', () => {
  assert.deepEqual(resolveConnection({ flags: {}, env: {}, file: { port: 3306 } }), { embedded: true, database: DEFAULT_SCHEMA });
});

test('flags win over environment, environment over conf.js', () => {
  const c = resolveConnection({
    flags: { host: 'flag-host', user: undefined },
    env: { DB_HOST: 'env-host', DB_USER: 'env-user', DB_PORT: '3307', DB_PASSWORD: 'pw' },
    file: { host: 'file-host', user: 'file-user', port: 3306, database: 'file_db' },
  });
  assert.equal(c.embedded, false);
  assert.equal(c.host, 'flag-host');
  assert.equal(c.user, 'env-user');
  assert.equal(c.port, 3307);
  assert.equal(c.password, 'pw');
  assert.equal(c.database, 'file_db');
});

test('conf.js alone configures a remote server', () => {
  const c = resolveConnection({ file: { host: '127.0.0.1', port: 3310, user: 'u' } });
  assert.deepEqual(c, { embedded: false, host: '127.0.0.1', port: 3310, socket: undefined, user: 'u', password: '', database: DEFAULT_SCHEMA });
});

test('a socket means a remote server without host or port', () => {
  const c = resolveConnection({ env: { DB_SOCKET: '/run/mysqld/mysqld.sock' } });
  assert.equal(c.embedded, false);
  assert.equal(c.socket, '/run/mysqld/mysqld.sock');
  assert.equal(c.host, undefined);
  assert.equal(c.port, undefined);
});

test('empty strings count as unset', () => {
  assert.equal(resolveConnection({ flags: { host: '' }, env: { DB_HOST: '' } }).embedded, true);
});

test('bad port and schema names are usage errors', () => {
  assert.throws(() => resolveConnection({ flags: { host: 'h', port: 'abc' } }), UserError);
  assert.throws(() => resolveConnection({ flags: { host: 'h', port: '70000' } }), UserError);
  assert.throws(() => resolveConnection({ flags: { database: 'x; DROP TABLE y' } }), /not allowed/);
});

test('number parsers reject zero, negatives, fractions and words', () => {
  const int = positiveInteger('--concurrency');
  assert.equal(int('4'), 4);
  for (const bad of ['0', '-1', '1.5', 'abc', '']) assert.throws(() => int(bad), /--concurrency must be a whole number/);
  const num = positiveNumber('--time');
  assert.equal(num('0.5'), 0.5);
  for (const bad of ['0', '-1', 'abc', '', 'Infinity']) assert.throws(() => num(bad), /--time must be a number/);
});

test('splitList trims and drops empties', () => {
  assert.deepEqual(splitList(' mysql, mariadb,,'), ['mysql', 'mariadb']);
});

test('--version prints the harness\'s version from its package.json, exit 0', async () => {
  const { readFileSync } = await import('node:fs');
  const { main } = await import('../../lib/cli/index.js');
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  let out = '';
  const stdout = { write: (s) => { out += s; return true; } };
  assert.equal(await main(['--version'], { stdout, stderr: stdout }), 0);
  assert.equal(out.trim(), version);
});
