// `mysql2` through its promise API: text protocol (query) and prepared statements (execute);
// its own pool; row events of the core connection for streaming.
import { COMMON_OPTIONS, adapterFields, baseOptions, installedVersion, ignoreErrorEvents, loadOnce, packageDir } from './common.js';
import { consumeRows } from './row-stream.js';
import { fillPool } from './pool-fill.js';

/**
 * `load` resolves to the release's `mysql2/promise` module; `name` is the label in results, `dir` where
 * its option names are read, `extraOptions` a variant row's connection options.
 */
export function createAdapter(args) {
  const { load, extraOptions = {} } = args;
  const module = loadOnce(load);
  // Rows as arrays carry their column definitions, so that the check can name the columns.
  const rowsOf = extraOptions.rowsAsArray
    ? ([rows, fields]) => (Array.isArray(rows) && fields ? Object.assign(rows, { fields }) : rows)
    : (reply) => reply[0];
  return {
    ...adapterFields(createAdapter, args, 'mysql2'),
    capabilities: { execute: true, batch: false, pipelining: false, stream: true, pool: true },
    options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },
    streamApi: "connection.query(sql).on('result', row)",

    async connect(target) {
      const mysql2 = await module();
      const conn = await mysql2.createConnection({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, ...extraOptions });
      ignoreErrorEvents(conn.connection);
      ignoreErrorEvents(conn);
      return {
        query: async (sql, params) => rowsOf(await conn.query(sql, params)),
        execute: async (sql, params) => rowsOf(await conn.execute(sql, params)),
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

    async createPool(target, size) {
      const mysql2 = await module();
      const pool = mysql2.createPool({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, connectionLimit: size, maxIdle: size, ...extraOptions });
      ignoreErrorEvents(pool.pool);
      ignoreErrorEvents(pool);
      await fillPool(pool, size);
      return {
        size,
        query: async (sql, params) => rowsOf(await pool.query(sql, params)),
        execute: async (sql, params) => rowsOf(await pool.execute(sql, params)),
        close: () => pool.end(),
      };
    },
  };
}

export default createAdapter({ load: () => import('mysql2/promise'), version: installedVersion('mysql2'), dir: packageDir('mysql2') });
