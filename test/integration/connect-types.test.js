// End to end: connect, connect_tls and select_types on the three drivers, each check passing,
// connect_tls really over TLS with the run's own certificate verified, and the temp directory (the
// certificate and its key with it) gone after the run; connect_tls n/a on a server without TLS; and
// what each driver's certificate check covers.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedDirs, leftovers, removeIsolatedDirs, runCli } from '../helpers/cli.js';
import { useEmbeddedServer } from '../helpers/server.js';
import { loadDrivers, BUILTIN_DRIVERS } from '../../lib/drivers/index.js';
import { findOpenssl } from '../../lib/server/tls-cert.js';
import { CERTIFICATE_CHECKS, sslOptionsFor } from '../../benchs/connect.js';

after(removeIsolatedDirs);
const plain = useEmbeddedServer({ database: 'connect_test_schema' });
const withTls = useEmbeddedServer({ database: 'tls_test_schema', tls: true });
const DRIVERS = ['mariadb', 'mysql', 'mysql2'];

test('--smoke connect connect_tls select_types: every check passes on the three drivers, TLS verified, nothing left behind', async () => {
  const { tmp, out } = isolatedDirs();
  const r = await runCli(['connect', 'connect_tls', 'select_types', '--smoke', '--json', '-', '--out', out], { tmp, timeoutMs: 300000 });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.complete, true);
  assert.deepEqual(json.benches.map((b) => b.name), ['connect', 'connect_tls', 'select_types']);
  for (const bench of json.benches) {
    assert.deepEqual(bench.results.map((x) => x.driver).sort(), DRIVERS, bench.name);
    for (const row of bench.results) {
      assert.equal(row.ok, true, `${bench.name} ${row.driver}: ${row.error}`);
      assert.ok(row.opsPerSec > 0 && row.cost.clientCpuUsPerOp > 0, `${bench.name} ${row.driver}: ${JSON.stringify(row.cost)}`);
    }
  }
  // The embedded server's certificate: made for the run, named for the host the drivers reach.
  assert.equal(json.server.tls.available, true);
  assert.match(json.server.tls.certificate.subjectAltName, /IP Address:127\.0\.0\.1, DNS:localhost/);
  assert.equal(json.server.tls.certificate.keyType, 'RSA 2048');
  const byName = Object.fromEntries(json.benches.map((b) => [b.name, b]));
  for (const row of byName.connect_tls.results) {
    // The server saw a TLS connection (checked once per window and in the warm-up) ...
    assert.match(row.workload.tls.version, /^TLSv1\.[23]$/, row.driver);
    assert.ok(row.workload.tls.cipher.length > 0, row.driver);
    assert.equal(row.workload.verifiedConnections, json.settings.rounds + 1, row.driver);
    assert.equal(row.protocol, 'text, new TLS connection');
    assert.equal(row.workload.certificateCheck, CERTIFICATE_CHECKS[row.driver].checks);
  }
  for (const row of byName.connect.results) {
    assert.equal(row.workload.tls, null, row.driver);
    assert.ok(row.workload.connections > 0 && row.workload.verifiedConnections > 0, row.driver);
  }
  // ... and the representations table came from what the drivers returned.
  const reps = Object.fromEntries(byName.select_types.results.map((row) => [row.driver, row.workload.representations]));
  assert.equal(reps.mysql.BIGINT, 'string');
  assert.equal(reps.mysql2.BIGINT, 'number/string');
  assert.equal(reps.mariadb.BIGINT, 'BigInt');
  for (const d of DRIVERS) {
    assert.equal(reps[d].DATETIME, 'Date', d);
    assert.equal(reps[d]['DECIMAL(20,6)'], 'string', d);
  }
  const [table] = byName.select_types.tables;
  assert.deepEqual(table.head, ['column type', ...byName.select_types.results.map((x) => x.driver)]);
  assert.match(r.stderr, /select_types · representations/);
  assert.match(r.stderr, /connect_tls · TLS connections/);
  assert.match(byName.select_types.note, /TZ=UTC/);
  // The certificate is public, its key never leaves the temp dir; the dir is gone with the server.
  const all = r.stdout + r.stderr;
  assert.doesNotMatch(all, /PRIVATE KEY|BEGIN CERTIFICATE/);
  const left = leftovers(tmp);
  assert.deepEqual(left.processes, [], 'no mariadbd (or watchdog) left running');
  assert.deepEqual(left.files, [], 'no temp directory (certificate, key) left behind');
});

test('on a server without TLS, connect_tls is n/a with the reason, and connect still runs', async () => {
  const { tmp, out } = isolatedDirs();
  const { target } = plain;
  const r = await runCli(['connect', 'connect_tls', '--smoke', '--json', '-', '--out', out], {
    tmp, env: { DB_HOST: target.host, DB_PORT: String(target.port), DB_USER: target.user, DB_PASSWORD: target.password, DB_DATABASE: 'connect_test_schema' },
  });
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  const [connect, tls] = json.benches;
  for (const row of connect.results) assert.equal(row.ok, true, `${row.driver}: ${row.error}`);
  for (const row of tls.results) {
    assert.equal(row.status, 'n/a');
    assert.match(row.error, /^the server at 127\.0\.0\.1:\d+ does not offer TLS \(have_ssl DISABLED\)/);
  }
  assert.equal(json.server.tls.available, false);
  assert.match(r.stderr, /connect_tls · mariadb: n\/a: the server at .* does not offer TLS/);
});

test('each driver verifies the certificate as CERTIFICATE_CHECKS says: a wrong CA is refused by all, a wrong host name by mysql2 and mariadb', async () => {
  const { server, target, admin } = withTls;
  const drivers = await loadDrivers(BUILTIN_DRIVERS);
  const tryConnect = async (driver, ca) => {
    try {
      const conn = await driver.connect({ ...target, database: undefined, driverOptions: { ssl: sslOptionsFor(driver, { available: true, ca }) } });
      await conn.close();
      return 'accepted';
    } catch (err) {
      return `refused: ${err.message}`;
    }
  };
  // The run's certificate: accepted by all.
  for (const d of drivers) assert.equal(await tryConnect(d, server.tls.ca), 'accepted', d.name);
  // Another CA: refused by all.
  const other = join(server.dir, 'other');
  const openssl = findOpenssl();
  const make = (san) => {
    writeFileSync(`${other}.cnf`, `[req]\ndistinguished_name=dn\nx509_extensions=e\nprompt=no\n[dn]\nCN=other\n[e]\nbasicConstraints=critical,CA:TRUE\nsubjectAltName=${san}\n`);
    execFileSync(openssl, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-config', `${other}.cnf`, '-keyout', `${other}-key.pem`, '-out', `${other}-cert.pem`], { stdio: 'ignore' });
    return readFileSync(`${other}-cert.pem`, 'utf8');
  };
  const otherCa = make('DNS:localhost');
  for (const d of drivers) assert.match(await tryConnect(d, otherCa), /^refused: .*(self.signed|certificate)/i, d.name);
  // The server given a certificate for another host name (FLUSH SSL reloads it), trusted as CA.
  const wrongHost = make('DNS:other.invalid');
  writeFileSync(join(server.dir, 'server-cert.pem'), wrongHost);
  writeFileSync(join(server.dir, 'server-key.pem'), readFileSync(`${other}-key.pem`));
  await admin.query('FLUSH SSL');
  const outcome = {};
  for (const d of drivers) outcome[d.name] = (await tryConnect(d, wrongHost)).replace(/:.*/s, '');
  assert.deepEqual(outcome, { mysql: 'accepted', mysql2: 'refused', mariadb: 'refused' });
  assert.match(CERTIFICATE_CHECKS.mysql.checks, /chain only/);
  assert.match(CERTIFICATE_CHECKS.mysql2.checks, /host name/);
  assert.match(CERTIFICATE_CHECKS.mariadb.checks, /host name/);
});
