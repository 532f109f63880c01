// The embedded server's certificate (no server): made by openssl for the run, named for the hosts
// the drivers reach, its key readable by its owner only; none without openssl.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENSSL_MISSING, findOpenssl, makeServerCertificate } from '../../lib/server/tls-cert.js';

const dir = mkdtempSync(join(tmpdir(), 'mdb-tls-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a self-signed RSA 2048 certificate for 127.0.0.1 and localhost, its key private', { skip: !findOpenssl() && 'no openssl here' }, () => {
  const made = makeServerCertificate(dir);
  const x509 = new X509Certificate(made.ca);
  assert.equal(x509.subjectAltName, 'IP Address:127.0.0.1, DNS:localhost');
  assert.equal(x509.checkIP('127.0.0.1'), '127.0.0.1');
  assert.equal(x509.checkHost('localhost'), 'localhost');
  assert.equal(x509.checkHost('example.com'), undefined);
  assert.equal(x509.ca, true);
  assert.ok(x509.verify(x509.publicKey), 'self-signed');
  assert.equal(x509.publicKey.asymmetricKeyDetails.modulusLength, 2048);
  assert.equal(statSync(made.key).mode & 0o077, 0, 'the key is readable by its owner only');
  assert.deepEqual(readdirSync(dir).sort(), ['server-cert.pem', 'server-key.pem'], 'the openssl config is removed');
  assert.equal(made.description.keyType, 'RSA 2048');
  assert.doesNotMatch(JSON.stringify(made.description), /PRIVATE|BEGIN/);
});

test('without openssl there is no certificate, and the reason says what to install', () => {
  assert.equal(makeServerCertificate(dir, { openssl: null }), null);
  assert.match(OPENSSL_MISSING, /apt-get install openssl/);
  assert.equal(findOpenssl({ PATH: '/nonexistent' }) === null || findOpenssl({ PATH: '/nonexistent' }).endsWith('/openssl'), true);
});
