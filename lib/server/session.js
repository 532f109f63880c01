// What every command that talks to a server shares: the server (embedded or remote), the harness's
// admin connection and schema, and their clean-up.
import conf from '../../conf.js';
import { resolveConnection } from '../common/config.js';
import { ServerLost, describeConnectError } from '../common/errors.js';
import { addSecret } from '../common/redact.js';
import { startEmbeddedServer, installServerIfAllowed } from './embedded.js';
import { prepareSchema, inspectServer } from './schema.js';
import adminDriver from '../drivers/mariadb.js';
import { within, deadline } from '../common/timers.js';
import { readFileSync } from 'node:fs';

export const connectionFlags = ({ host, port, user, password, database, socket }) => ({ host, port, user, password, database, socket });

/** Where the run's server is, without reaching it. */
export function serverSource({ flags, env }) {
  const c = resolveConnection({ flags, env, file: conf });
  return c.embedded ? { embedded: true, database: c.database } : { embedded: false, address: c.socket ?? `${c.host}:${c.port}`, database: c.database };
}

/** On failure all of it is closed first; close() is safe twice. `context.tls`: what the drivers trust, or why no TLS. */
export async function openServer({ flags, env, log, abort, signal, tls = false }) {
  const connection = resolveConnection({ flags, env, file: conf });
  addSecret(connection.password);
  let server = null;
  let admin = null;
  const onExit = () => server?.stopSync();
  process.on('exit', onExit);
  const close = async () => {
    if (admin) await within(admin.close().catch(() => {}), 2000);
    admin = null;
    if (server) {
      log('embedded server: stopping');
      await server.stop();
      server = null;
    }
    process.off('exit', onExit);
  };
  try {
    let target;
    if (connection.embedded) {
      installServerIfAllowed(env);
      server = await startEmbeddedServer({ database: connection.database, onLog: log, tls });
      server.process.once('exit', () => abort(new ServerLost('the embedded server exited unexpectedly')));
      target = { host: server.host, port: server.port, user: server.user, password: server.password, database: connection.database };
    } else {
      target = connection;
    }
    signal?.throwIfAborted();
    try {
      admin = await adminDriver.connect({ ...target, database: undefined });
    } catch (err) {
      throw describeConnectError(err, target);
    }
    await prepareSchema(admin, target.database);
    const serverInfo = { ...(await inspectServer(admin)), embedded: connection.embedded };
    if (server) serverInfo.storage = server.storage; // the embedded server's data: 'memory' or 'disk'
    const tlsContext = !tls ? undefined : server ? server.tls : await remoteTls(admin, target, env);
    if (tlsContext) serverInfo.tls = describeTls(tlsContext); // the certificate's facts, not its PEM
    return {
      target,
      admin,
      serverInfo,
      context: { schema: target.database, server: serverInfo, ...(tlsContext ? { tls: tlsContext } : {}) },
      close,
      alive: () => ping(admin),
      serverPid: server?.process.pid ?? null, // the embedded server (null for a remote one)
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function describeTls(t) {
  if (!t.available) return { available: false, reason: t.reason };
  return { available: true, certificate: t.certificate ?? null, trusted: t.trusted };
}

/** TLS on a server of the user's: verified against DB_SSL_CA (a PEM file) when given, else Node's trusted CAs. */
async function remoteTls(admin, target, env) {
  const where = target.socket ? `the server at ${target.socket}` : `the server at ${target.host}:${target.port}`;
  let haveSsl = null;
  try {
    const rows = await admin.query("SHOW GLOBAL VARIABLES LIKE 'have_ssl'");
    haveSsl = rows[0]?.Value ?? null;
  } catch { /* not told */ }
  if (haveSsl === null) { // MySQL 8.4 has no have_ssl: a server with a certificate has a validity date
    try {
      const rows = await admin.query("SHOW GLOBAL STATUS LIKE 'Ssl_server_not_after'");
      haveSsl = rows[0]?.Value ? 'YES' : 'DISABLED';
    } catch { haveSsl = 'unknown'; }
  }
  if (haveSsl !== 'YES') {
    return { available: false, reason: `${where} does not offer TLS (have_ssl ${haveSsl}): give it ssl_cert and ssl_key, or run against the embedded server` };
  }
  if (target.socket) return { available: false, reason: `${where} is reached by a unix socket: TLS needs a TCP host (--host/DB_HOST)` };
  const caFile = env?.DB_SSL_CA;
  if (!caFile) return { available: true, ca: null, trusted: "Node's trusted CAs (set DB_SSL_CA to a PEM file to trust your own CA)" };
  try {
    return { available: true, ca: readFileSync(caFile, 'utf8'), trusted: `DB_SSL_CA (${caFile})` };
  } catch (err) {
    return { available: false, reason: `DB_SSL_CA ${caFile} cannot be read: ${err.message}` };
  }
}

async function ping(admin) {
  try {
    await deadline(admin.query('DO 1'), 5000, () => new Error('ping timeout'));
    return true;
  } catch {
    return false;
  }
}
