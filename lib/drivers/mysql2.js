// `mysql2` through its promise API: text protocol (query) and prepared statements (execute);
// its own pool; row events of the core connection for streaming.
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents, loadOnce } from './common.js';
import { consumeRows } from './row-stream.js';
import { fillPool } from './pool-fill.js';

/**
 * @param {object} p
 * @param {() => Promise<object>} p.load resolves to the `mysql2/promise` module of the release to measure
 * @param {string} p.version
 * @param {string} [p.name] the label in results (e.g. 'mysql2@3.9.0' when several releases run)
 */
export function createAdapter({ load, version, name = 'mysql2' }) {
  const module = loadOnce(load);
  return {
    name,
    packageName: 'mysql2',
    version,
    capabilities: { execute: true, batch: false, pipelining: false, stream: true, pool: true },
    options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },
    streamApi: "connection.query(sql).on('result', row)",

    async connect(target) {
      const mysql2 = await module();
      const conn = await mysql2.createConnection({ ...baseOptions(target), charset: COMMON_OPTIONS.collation });
      ignoreErrorEvents(conn.connection);
      ignoreErrorEvents(conn);
      return {
        query: async (sql, params) => (await conn.query(sql, params))[0],
        execute: async (sql, params) => (await conn.execute(sql, params))[0],
        // The driver's streaming API: the core connection's query without a callback emits rows and keeps none.
        stream: (sql, params, onRow) => consumeRows(conn.connection.query(sql, params), 'result', onRow),
        close: () => conn.end(),
        destroy: () => conn.destroy(),
        threadId: conn.threadId ?? conn.connection?.threadId,
      };
    },

    /** Forget the compiled row parsers, a module-wide cache shared by every connection. */
    async releaseCaches() {
      const mysql2 = await module();
      mysql2.clearParserCache?.();
    },

    /** The driver's own pool of `size` connections. */
    async createPool(target, size) {
      const mysql2 = await module();
      const pool = mysql2.createPool({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, connectionLimit: size, maxIdle: size });
      ignoreErrorEvents(pool.pool);
      ignoreErrorEvents(pool);
      await fillPool(pool, size);
      return {
        size,
        query: async (sql, params) => (await pool.query(sql, params))[0],
        execute: async (sql, params) => (await pool.execute(sql, params))[0],
        close: () => pool.end(),
      };
    },
  };
}

export default createAdapter({ load: () => import('mysql2/promise'), version: installedVersion('mysql2') });
