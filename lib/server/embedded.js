// A throwaway MariaDB server: fresh data dir in memory or the OS temp dir (storage.js), loopback only,
// a free port, a password user; stopped and removed when the run ends.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installError, setupError } from '../common/errors.js';
import { findExecutable, pathDirs } from '../common/find-executable.js';
import { addSecret } from '../common/redact.js';
import { sleep, within } from '../common/timers.js';
import { OPENSSL_MISSING, makeServerCertificate } from './tls-cert.js';
import { serverStorage } from './storage.js';

export const TEMP_PREFIX = 'mysql-driver-bench-';
const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/libexec', '/usr/local/mysql/bin'];
const WATCHDOG = fileURLToPath(new URL('./watchdog.js', import.meta.url));

const findServerExecutable = (names) => findExecutable(names, [...pathDirs(process.env.PATH), ...SBIN_DIRS]);

export function findServerBinaries() {
  return {
    mariadbd: findServerExecutable(['mariadbd', 'mysqld']),
    installDb: findServerExecutable(['mariadb-install-db', 'mysql_install_db']),
  };
}

export function embeddedServerVersion() {
  const { mariadbd } = findServerBinaries();
  if (!mariadbd) return null;
  const r = spawnSync(mariadbd, ['--version'], { encoding: 'utf8', timeout: 10000 });
  return /\bVer\s+(\S+)/.exec(r.stdout ?? '')?.[1] ?? null;
}

const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.js', import.meta.url));

/** Only under `npm run benchmark` is a missing mariadbd installed (setup script, root); run directly, the CLI explains. */
export function installServerIfAllowed(env = process.env) {
  const { mariadbd, installDb } = findServerBinaries();
  if (mariadbd && installDb) return;
  if (env.npm_lifecycle_event !== 'benchmark') throw missingServerError();
  const r = spawnSync(process.execPath, [SETUP_SCRIPT, '--server'], { stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw missingServerError();
}

export function missingServerError() {
  return installError('mariadbd was not found, and no server is configured',
    'install the Debian/Ubuntu package mariadb-server (as root: npm run setup, or apt-get install mariadb-server), '
    + 'or point the harness at a server with --host/--socket or DB_HOST/DB_SOCKET');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}


function tail(file, lines = 5) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join(' | ');
  } catch {
    return '';
  }
}

/** `proc` holds the process and watchdog as they are spawned; both stops remove the directory and are safe twice. */
function stoppers(proc, dir) {
  const stopSync = () => {
    if (proc.stopped) return;
    proc.stopped = true;
    const { child } = proc;
    if (child && child.exitCode === null && child.signalCode === null) {
      try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    try { proc.watchdog?.kill('SIGKILL'); } catch { /* already gone */ }
    rmSync(dir, { recursive: true, force: true });
  };

  const stop = async () => {
    if (proc.stopped) return;
    const { child } = proc;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.ref(); // keep the event loop alive until the server has gone
      try { process.kill(child.pid, 'SIGTERM'); } catch { /* already gone */ }
      const graceful = await within(exited.then(() => true), 15000, false);
      if (!graceful) {
        try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ }
        await within(exited, 2000);
      }
    }
    stopSync();
  };
  return { stop, stopSync };
}

function initialiseDataDir(installDb, { dir, dataDir, userArgs }) {
  const install = spawnSync(installDb, [
    '--no-defaults', `--datadir=${dataDir}`, ...userArgs, `--tmpdir=${dir}`,
    '--auth-root-authentication-method=socket', '--skip-test-db',
  ], { encoding: 'utf8', timeout: 120000 });
  if (install.status !== 0) {
    throw setupError(`${installDb} failed (exit ${install.status}): ${(install.stderr || install.stdout || '').trim().split('\n').slice(-3).join(' | ')}`,
      'check that the mariadb-server package is complete and the temp directory is writable');
  }
}

/** The harness's user with a random password, created by the server's --init-file at its first start. */
function writeInitFile(dir) {
  const password = randomBytes(18).toString('base64url');
  addSecret(password);
  const user = 'bench';
  const initFile = join(dir, 'init.sql');
  writeFileSync(initFile, [
    `CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY '${password}';`,
    `CREATE USER '${user}'@'localhost' IDENTIFIED BY '${password}';`,
    `GRANT ALL PRIVILEGES ON *.* TO '${user}'@'127.0.0.1' WITH GRANT OPTION;`,
    `GRANT ALL PRIVILEGES ON *.* TO '${user}'@'localhost' WITH GRANT OPTION;`,
    '',
  ].join('\n'), { mode: 0o600 });
  return { user, password, initFile };
}

function tlsSetup(dir, tls, onLog) {
  if (!tls) return { tlsInfo: { available: false, reason: 'the embedded server was started without TLS' }, tlsArgs: [] };
  const made = makeServerCertificate(dir);
  if (!made) return { tlsInfo: { available: false, reason: OPENSSL_MISSING }, tlsArgs: [] };
  onLog(`embedded server: TLS with a self-signed ${made.description.keyType} certificate made for this run (${made.description.subjectAltName})`);
  return {
    tlsInfo: { available: true, ca: made.ca, certificate: made.description, trusted: 'this certificate only (self-signed, made for the run)' },
    tlsArgs: [`--ssl-cert=${made.cert}`, `--ssl-key=${made.key}`, `--ssl-ca=${made.cert}`],
  };
}

function serverArgs({ dir, dataDir, userArgs, port, socket, errorLog, initFile, blackhole, tlsArgs }) {
  return [
    '--no-defaults', `--datadir=${dataDir}`, ...userArgs,
    `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${socket}`,
    // Its own tmpdir: a starting mariadbd deletes other servers' #sql temp files in a shared one.
    `--tmpdir=${dir}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`, `--log-error=${errorLog}`,
    `--init-file=${initFile}`, '--skip-name-resolve', '--skip-log-bin',
    ...(blackhole ? ['--plugin-load-add=ha_blackhole'] : []),
    // Throwaway data: do not measure the disk's fsync, measure the drivers.
    '--innodb-flush-log-at-trx-commit=2', '--innodb-buffer-pool-size=256M',
    '--max-connections=1000', '--max-allowed-packet=256M',
    ...tlsArgs,
  ];
}

async function waitUntilReady(child, { errorLog, spawnError, startTimeoutMs }) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw setupError(`mariadbd exited while starting: ${tail(errorLog)}`,
        'see the server log above; run with --debug for details');
    }
    if (existsSync(errorLog) && readFileSync(errorLog, 'utf8').includes('ready for connections')) break;
    if (Date.now() - started > startTimeoutMs) {
      throw setupError(`mariadbd did not become ready within ${startTimeoutMs / 1000} s: ${tail(errorLog)}`,
        'the machine may be overloaded; try again');
    }
    await Promise.race([sleep(25), spawnError]);
  }
  return Date.now() - started;
}

/** With `tls`, it serves TLS with a certificate made for it (tls-cert.js); `tls` in the result says { available, ca } or why not. */
export async function startEmbeddedServer({ database, onLog = () => {}, startTimeoutMs = 60000, blackhole = true, tls = false } = {}) {
  const { mariadbd, installDb } = findServerBinaries();
  if (!mariadbd || !installDb) throw missingServerError();

  const { base, storage } = serverStorage();
  const dir = mkdtempSync(join(base, TEMP_PREFIX));
  const dataDir = join(dir, 'data');
  const errorLog = join(dir, 'error.log');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const userArgs = asRoot ? ['--user=root'] : [`--user=${userInfo().username}`];
  const proc = { child: null, watchdog: null, stopped: false };
  const { stop, stopSync } = stoppers(proc, dir);

  try {
    onLog('embedded server: initialising a data directory');
    initialiseDataDir(installDb, { dir, dataDir, userArgs });
    const { user, password, initFile } = writeInitFile(dir);
    const { tlsInfo, tlsArgs } = tlsSetup(dir, tls, onLog);
    const port = await freePort();
    const socket = join(dir, 'mysqld.sock');
    const args = serverArgs({ dir, dataDir, userArgs, port, socket, errorLog, initFile, blackhole, tlsArgs });
    onLog(`embedded server: starting mariadbd on 127.0.0.1:${port}`);
    // Own process group: Ctrl-C in the terminal must reach the harness only, which then stops the server itself.
    const child = spawn(mariadbd, args, { detached: true, stdio: 'ignore' });
    proc.child = child;
    const spawnError = new Promise((_, reject) => child.once('error', reject));
    spawnError.catch(() => {});
    proc.watchdog = spawn(process.execPath, [WATCHDOG, String(process.pid), String(child.pid), dir],
      { detached: true, stdio: 'ignore' });
    proc.watchdog.unref();

    const readyMs = await waitUntilReady(child, { errorLog, spawnError, startTimeoutMs });
    rmSync(initFile, { force: true });
    onLog(`embedded server: ready in ${readyMs} ms`);
    child.unref();
    return {
      host: '127.0.0.1', port, user, password, database, socket, dir, storage, pid: child.pid, errorLog, tls: tlsInfo,
      process: child, stop, stopSync,
    };
  } catch (err) {
    stopSync();
    throw err;
  }
}
