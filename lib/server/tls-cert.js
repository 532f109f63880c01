// The embedded server's self-signed TLS certificate, made per run by `openssl`: the drivers trust only it
// and verify the host name, so its subjectAltName names 127.0.0.1 and localhost. Node built-ins only:
// scripts/setup.js uses it before `npm ci`.
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable, pathDirs } from '../common/find-executable.js';

export const CERT_KEY_TYPE = 'RSA 2048'; // what MySQL and MariaDB generate for themselves; the handshake cost depends on it
export const CERT_HOSTS = Object.freeze({ ip: ['127.0.0.1'], dns: ['localhost'] });
export const OPENSSL_MISSING = 'the openssl command was not found, so the embedded server has no TLS certificate: '
  + 'install it (as root: apt-get install openssl), or point the harness at a server with TLS';

export function findOpenssl(env = process.env) {
  return findExecutable(['openssl'], [...pathDirs(env.PATH), '/usr/bin', '/usr/local/bin']);
}

const CONFIG = `[req]
distinguished_name = dn
x509_extensions = server
prompt = no
[dn]
CN = mysql-driver-bench embedded server
[server]
basicConstraints = critical, CA:TRUE
keyUsage = critical, digitalSignature, keyEncipherment, keyCertSign
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
subjectAltName = ${[...CERT_HOSTS.ip.map((a) => `IP:${a}`), ...CERT_HOSTS.dns.map((d) => `DNS:${d}`)].join(', ')}
`;

/** `ca` is the certificate's PEM, what the drivers trust; null when openssl is absent. */
export function makeServerCertificate(dir, { openssl = findOpenssl() } = {}) {
  if (!openssl) return null;
  const config = join(dir, 'openssl.cnf');
  const cert = join(dir, 'server-cert.pem');
  const key = join(dir, 'server-key.pem');
  writeFileSync(config, CONFIG);
  try {
    const r = spawnSync(openssl, [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2',
      '-config', config, '-keyout', key, '-out', cert,
    ], { encoding: 'utf8', timeout: 60000 });
    if (r.error || r.status !== 0) {
      const why = r.error?.message ?? (r.stderr || '').trim().split('\n').slice(-2).join(' | ');
      throw new Error(`openssl could not make the embedded server's TLS certificate: ${why}`);
    }
  } finally {
    rmSync(config, { force: true });
  }
  const ca = readFileSync(cert, 'utf8');
  const x509 = new X509Certificate(ca);
  return {
    cert,
    key,
    ca,
    description: {
      subject: x509.subject.replace(/\n/g, ', '),
      subjectAltName: x509.subjectAltName,
      keyType: CERT_KEY_TYPE,
      fingerprint256: x509.fingerprint256,
      validTo: new Date(x509.validTo).toISOString(),
    },
  };
}
