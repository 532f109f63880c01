// connect and connect_tls: one operation opens and authenticates a new connection, runs `DO 1` and
// closes the connection (pgbench -C). ops/s = connections/s; the cost columns give the driver's CPU
// per connection. connect_tls does the same over TLS, verifying the server's certificate.
//
// What is checked: every `DO 1` reply is an OK packet; on the first connection of the warm-up and of
// every window, the server's own view of that connection (Ssl_cipher, Ssl_version: empty for connect,
// a cipher for connect_tls); after every window, from the harness's connection, that the server
// counted at least one new connection per operation (Connections), each a finished TLS handshake for
// connect_tls (Ssl_finished_accepts).
import { CheckError, expect, expectOk } from './_check.js';
import { fmtInt, fmtUs } from '../lib/common/format-numbers.js';

const SQL = 'DO 1';
const STATUS_SQL = "SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_cipher', 'Ssl_version')";
const COUNTERS_SQL = "SHOW GLOBAL STATUS WHERE Variable_name IN ('Connections', 'Ssl_finished_accepts')";

/**
 * How each driver is told to verify the certificate, and what it then checks (found by connecting to a
 * server whose certificate names another host: mysql2 and mariadb refuse it, mysql accepts it).
 */
export const CERTIFICATE_CHECKS = Object.freeze({
  mysql: { options: {}, checks: 'chain only (mysql has no host-name check)' },
  mysql2: { options: { verifyIdentity: true }, checks: 'chain and host name (ssl.verifyIdentity)' },
  mariadb: { options: {}, checks: 'chain and host name' },
});

/** The `ssl` option for a driver: the run's certificate as its only CA (or Node's CAs on a remote server without DB_SSL_CA), verified. */
export function sslOptionsFor(driver, tls) {
  return {
    ...(tls.ca ? { ca: tls.ca } : {}),
    rejectUnauthorized: true,
    ...(CERTIFICATE_CHECKS[driver.packageName]?.options ?? {}),
  };
}

const rowsOf = (result) => (Array.isArray(result) ? result : []);

/** The server's view of one connection: { cipher, version } ('' when it is not TLS). */
async function sessionTls(conn) {
  const status = Object.fromEntries(rowsOf(await conn.query(STATUS_SQL)).map((r) => [r.Variable_name, String(r.Value ?? '')]));
  expect('Ssl_cipher' in status, () => `SHOW SESSION STATUS gave no Ssl_cipher: ${JSON.stringify(Object.keys(status))}`);
  return { cipher: status.Ssl_cipher, version: status.Ssl_version ?? '' };
}

async function readCounters(admin) {
  const rows = await admin.query(COUNTERS_SQL);
  const v = Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
  return { connections: v.Connections, tls: v.Ssl_finished_accepts ?? 0 };
}

function connectBench({ name, tls }) {
  let before = null; // the server's counters before the window being measured
  return {
    name,
    notReplayable: 'each operation opens a connection: the handshake with the server is what it measures',
    title: tls
      ? 'open a new TLS connection (certificate verified), authenticate, DO 1, close: ops/s = connections/s'
      : 'open a new connection, authenticate, DO 1, close (pgbench -C): ops/s = connections/s',
    sql: `connect${tls ? ' (TLS)' : ''}; ${SQL}; close`,
    inDefaultRun: false,
    requires: tls ? ['tls'] : [],
    note: (ctx) => {
      const base = 'each operation is a new connection: ops/s = connections/s, cpu µs/op = the driver\'s CPU per connection (its table below)';
      if (!tls) return `${base}; checked plain: Ssl_cipher empty`;
      const t = ctx.tls;
      if (!t?.available) return `${base}; no TLS in this run: ${t?.reason ?? 'not set up'}`;
      const cert = t.certificate ? `a self-signed ${t.certificate.keyType} certificate made for this run (${t.certificate.subjectAltName}), ` : '';
      return `${base}; TLS: ${cert}trusted: ${t.trusted}; rejectUnauthorized: true`;
    },
    async beforeWindow(admin) {
      before = await readCounters(admin);
    },
    async verify(admin, ctx, windowStats) {
      const n = windowStats?.connections ?? 0;
      if (!before || n === 0) return;
      const after = await readCounters(admin);
      const opened = after.connections - before.connections;
      expect(opened >= n, () => `the driver ran ${n} operations, but the server counted ${opened} new connections: operations must each open one`);
      if (tls) {
        const handshakes = after.tls - before.tls;
        expect(handshakes >= n, () => `the driver opened ${n} connections, but the server finished ${handshakes} TLS handshakes`);
      }
    },
    plan(driver, ctx) {
      if (tls && !ctx?.tls?.available) return { unavailable: ctx?.tls?.reason ?? 'this run has no TLS set up' };
      const state = { due: true, connections: 0, total: 0, verified: 0, seen: null };
      return {
        protocol: tls ? 'text, new TLS connection' : 'text, new connection',
        connects: true, // the op gets a connector and opens its own connections
        connectOptions: tls ? { ssl: sslOptionsFor(driver, ctx.tls) } : undefined,
        op: (connector) => async () => {
          const conn = await connector.connect();
          let reply;
          try {
            reply = await conn.query(SQL);
            if (state.due) { // once per warm-up and per window, in its unmeasured lead-in
              state.due = false;
              const seen = await sessionTls(conn);
              if (tls && (!seen.cipher || !seen.version.startsWith('TLS'))) {
                throw new CheckError(`connect_tls: the connection is not encrypted (server: Ssl_cipher '${seen.cipher}', Ssl_version '${seen.version}')`);
              }
              if (!tls && seen.cipher) throw new CheckError(`connect: the connection uses TLS (${seen.cipher}), the bench measures plain connections`);
              state.verified++;
              state.seen = seen;
            }
          } catch (err) {
            try { conn.destroy?.(); } catch { /* gone */ }
            throw err;
          }
          await conn.close();
          state.connections++;
          state.total++;
          return reply;
        },
        /** Connections opened since the last call; the next operation checks its connection again. */
        windowStats() {
          const w = { connections: state.connections };
          state.connections = 0;
          state.due = true;
          return w;
        },
        summarize: () => ({
          connections: state.total,
          verifiedConnections: state.verified,
          tls: tls && state.seen ? { version: state.seen.version, cipher: state.seen.cipher } : null,
          certificateCheck: tls ? (CERTIFICATE_CHECKS[driver.packageName]?.checks ?? 'as the adapter does it') : null,
        }),
      };
    },
    check: (reply) => expectOk(reply, 0),
    tables: (rows) => [connectionsTable(rows, tls)],
  };
}

/** Per driver: connections/s and the cost of one connection, and (TLS) what was negotiated and verified. */
function connectionsTable(rows, tls) {
  const head = ['driver', 'connections/s', 'client CPU µs/conn', 'GC ms/1k conn', 'server CPU µs/conn', ...(tls ? ['TLS', 'certificate check'] : ['TLS'])];
  const body = rows.map((r) => {
    if (!r.ok) return [r.driver, r.status === 'n/a' ? 'n/a' : 'FAILED', '', '', '', ...(tls ? ['', ''] : [''])];
    const c = r.cost ?? {};
    const w = r.workload ?? {};
    const gc = Number.isFinite(c.gcMsPer1000Ops) ? c.gcMsPer1000Ops.toFixed(2) : '-';
    const seen = tls ? (w.tls ? `${w.tls.version} ${w.tls.cipher}` : '-') : 'none';
    return [r.driver, fmtInt(r.opsPerSec), fmtUs(c.clientCpuUsPerOp), gc, fmtUs(c.serverCpuUsPerOp),
      seen, ...(tls ? [w.certificateCheck ?? '-'] : [])];
  });
  return {
    title: tls ? 'TLS connections: the cost of one, and what each driver negotiated and verified' : 'connections: the cost of one',
    head,
    rows: body,
    notes: [`one connection = connect and authenticate${tls ? ' over TLS' : ''}, DO 1, close; CPU and GC over every measured connection; `
      + `${tls ? 'TLS' : 'plain'} confirmed by the server on the first connection of every window${tls ? ', and a finished TLS handshake counted by the server for every connection' : ''}`],
  };
}

export default connectBench({ name: 'connect', tls: false });
export const connectTls = connectBench({ name: 'connect_tls', tls: true });
