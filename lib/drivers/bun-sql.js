// `bun-sql`: Bun's own client (Bun.SQL, adapter 'mysql'), a row that runs only on Bun. Bun.SQL prepares
// a statement exactly when it has parameters (capabilities.preparesIfParams), so a text bench with
// parameters and a binary one without are n/a (docs/runtimes.md, "`bun-sql`: Bun's own client").

const version = () => globalThis.Bun?.version ?? 'unknown';

function clientOptions(target, max) {
  const o = { adapter: 'mysql', username: target.user, password: target.password, database: target.database, max, idleTimeout: 0, connectionTimeout: 10 };
  if (target.socket) o.path = target.socket;
  else { o.hostname = target.host; o.port = target.port; }
  if (target.driverOptions?.ssl) o.tls = target.driverOptions.ssl;
  return o;
}

/** A Bun.SQL result as the benches read results: rows for a result set, { affectedRows, insertId } for an OK reply. */
function resultOf(result, sqlText) {
  if (/^\s*(select|show|call|with)\b/i.test(sqlText)) return [...result];
  return { affectedRows: result.affectedRows ?? result.count, insertId: result.lastInsertRowid };
}

const NEEDS_BUN = 'bun-sql runs on Bun only (Bun.SQL is not there)';

// The fairness rules' collation, set on every connection (Bun.SQL has no collation option).
const COLLATION = "SET NAMES utf8mb4 COLLATE 'utf8mb4_unicode_ci'";

function client(target, max) {
  if (!globalThis.Bun?.SQL) throw new Error(NEEDS_BUN);
  return new globalThis.Bun.SQL(clientOptions(target, max));
}

function statements(sql) {
  return {
    query: async (text, params) => {
      if (params?.length) throw new Error('bun-sql prepares every statement with parameters: no text protocol with parameters');
      return resultOf(await sql.unsafe(text).simple(), text);
    },
    execute: async (text, params) => {
      if (!params?.length) throw new Error('bun-sql prepares only statements with parameters: one without runs as text');
      return resultOf(await sql.unsafe(text, params), text);
    },
  };
}

export default {
  name: 'bun-sql',
  packageName: 'bun-sql',
  get version() { return version(); },
  runtimeNeeded: 'bun',
  // No timezone or number options either: the process's TZ (UTC) and the session's time_zone decide.
  capabilities: { execute: true, batch: false, pipelining: false, stream: false, pool: true, preparesIfParams: true, driverOptions: false },
  options: { collation: 'UTF8MB4_UNICODE_CI (SET NAMES on each connection)', compress: false },

  async connect(target) {
    const sql = client(target, 1);
    const reserved = await sql.reserve();
    await reserved.unsafe(COLLATION).simple();
    const [{ id }] = await reserved.unsafe('SELECT CONNECTION_ID() AS id').simple();
    return {
      ...statements(reserved),
      close: async () => { reserved.release(); await sql.close(); },
      destroy: () => { reserved.release(); sql.close({ timeout: 0 }); },
      threadId: Number(id),
    };
  },

  async createPool(target, size) {
    const sql = client(target, size);
    // Every connection open and collated before the first measured call, as the other pools.
    const held = await Promise.all(Array.from({ length: size }, () => sql.reserve()));
    await Promise.all(held.map((c) => c.unsafe(COLLATION).simple()));
    for (const c of held) c.release();
    return { size, ...statements(sql), close: () => sql.close() };
  },
};
