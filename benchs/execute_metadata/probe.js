// Whether each driver benefits from the server skipping unchanged result metadata of prepared
// statements (MariaDB 10.6+, MDEV-19237, capability MARIADB_CLIENT_CACHE_METADATA). Driver-agnostic:
// on the driver's own connection, the server's session counter Bytes_sent is read around a number of
// executions of the execute_metadata statement, bound so its columns stay the same, then so they
// change every time. A driver that negotiated the skipping receives far fewer bytes per unchanged
// execution; one that did not receives the full column definitions every time.
import { redact } from '../../lib/common/redact.js';
import { within } from '../../lib/common/timers.js';
import { METADATA_SQL, TAG, checkTaggedHundredCols } from './statement.js';
import { rowsAsObjects } from '../../lib/drivers/variants.js';

export const EXECUTIONS = 50;

/** Does the server offer metadata skipping? From the handshake when the admin connection knows it. */
export function serverOffer(admin, server) {
  if (admin?.metadataCache && typeof admin.metadataCache.offered === 'boolean') {
    return { offered: admin.metadataCache.offered, from: 'handshake capability MARIADB_CLIENT_CACHE_METADATA' };
  }
  if (!server?.version) return { offered: null, from: 'unknown' };
  const [major, minor] = server.version.split(/[.-]/).map(Number);
  const offered = server.kind === 'mariadb' && (major > 10 || (major === 10 && minor >= 6));
  return { offered, from: 'server version (MariaDB 10.6 or later)' };
}

async function bytesSent(conn) {
  const rows = rowsAsObjects(await conn.query("SHOW SESSION STATUS LIKE 'Bytes_sent'"));
  const row = rows?.[0] ?? {};
  const value = Number(row.Value ?? row.VALUE ?? row.value);
  if (!Number.isFinite(value)) throw new Error('cannot read the session status Bytes_sent');
  return value;
}

/** Bytes the server sent per execution, the status query's own reply subtracted. */
async function bytesPerExecution(conn, paramsFor, executions) {
  for (let i = 0; i < 3; i++) checkTaggedHundredCols(rowsAsObjects(await conn.execute(METADATA_SQL, paramsFor(i))));
  const c0 = await bytesSent(conn);
  const c1 = await bytesSent(conn);
  const statusReply = c1 - c0;
  const b0 = await bytesSent(conn);
  for (let i = 0; i < executions; i++) checkTaggedHundredCols(rowsAsObjects(await conn.execute(METADATA_SQL, paramsFor(i))));
  const b1 = await bytesSent(conn);
  return Math.round((b1 - b0 - statusReply) / executions);
}

/**
 * Run after the execute_metadata table exists (the bench's setup). Returns
 * { server: { offered, from }, drivers: [{ driver, ok, status, bytesUnchanged, bytesChanging, skips, error }] }.
 */
export async function runMetadataProbe({ drivers, target, admin, server, executions = EXECUTIONS }) {
  const out = { server: serverOffer(admin, server), executions, sql: METADATA_SQL, drivers: [] };
  for (const driver of drivers) {
    if (!driver.capabilities?.execute) {
      out.drivers.push({ driver: driver.name, ok: false, status: 'n/a', error: 'no prepared statements in this driver' });
      continue;
    }
    let conn = null;
    try {
      conn = await driver.connect(target);
      const bytesUnchanged = await bytesPerExecution(conn, () => [TAG], executions);
      const bytesChanging = await bytesPerExecution(conn, (i) => ((i & 1) === 0 ? [TAG] : [String(TAG)]), executions);
      out.drivers.push({
        driver: driver.name,
        ok: true,
        status: 'ok',
        bytesUnchanged,
        bytesChanging,
        // Unchanged executions that cost less than half the bytes: the column definitions were skipped.
        skips: bytesUnchanged < bytesChanging / 2,
        negotiated: conn.metadataCache?.used ?? null,
      });
    } catch (err) {
      out.drivers.push({ driver: driver.name, ok: false, status: 'failed', error: redact(err?.sqlMessage || err?.message || String(err)) });
    } finally {
      if (conn) await within(Promise.resolve(conn.close()).catch(() => {}), 2000);
    }
  }
  return out;
}
