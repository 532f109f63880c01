// `mysql` through `promise-mysql`: text protocol only; its own pool; row events for streaming.
import { COMMON_OPTIONS, adapterFields, baseOptions, installedVersion, ignoreErrorEvents, loadOnce, packageDir } from './common.js';
import { consumeRows } from './row-stream.js';
import { fillPool } from './pool-fill.js';

/**
 * `load` resolves to `promise-mysql`; `version` is the `mysql` release it wraps, `via` its own release,
 * `mysqlModule` the `mysql` it wraps when not its own (a local checkout); `name`, `dir` (of `mysql`) and
 * `extraOptions` as in mysql2.js.
 */
export function createAdapter(args) {
  const { load, via, mysqlModule = null, extraOptions = {} } = args;
  const module = loadOnce(load);
  const own = { ...extraOptions, ...(mysqlModule ? { mysqlWrapper: () => mysqlModule() } : {}) };
  return {
    ...adapterFields(createAdapter, args, 'mysql'),
    via,
    capabilities: { execute: false, batch: false, pipelining: false, stream: true, pool: true },
    options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },
    streamApi: "query(sql).on('result', row)",

    async connect(target) {
      const promiseMysql = await module();
      // promise-mysql would otherwise reconnect on its own after a lost connection; the harness decides.
      const conn = await promiseMysql.createConnection({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, reconnect: false, ...own });
      ignoreErrorEvents(conn.connection);
      return {
        query: (sql, params) => conn.query(sql, params),
        // The driver's streaming API: without a callback, rows arrive as 'result' events and are not kept.
        stream: (sql, params, onRow) => consumeRows(conn.queryStream(sql, params), 'result', onRow),
        close: () => conn.end(),
        destroy: () => conn.destroy(),
        threadId: conn.threadId ?? conn.connection?.threadId,
      };
    },

    /** The driver's own pool of `size` connections (mysql pings a free connection on every acquire). */
    async createPool(target, size) {
      const promiseMysql = await module();
      const pool = await promiseMysql.createPool({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, connectionLimit: size, ...own });
      ignoreErrorEvents(pool.pool);
      await fillPool(pool, size);
      return {
        size,
        query: (sql, params) => pool.query(sql, params),
        close: () => pool.end(),
      };
    },
  };
}

export default createAdapter({
  load: () => import('promise-mysql'),
  version: installedVersion('mysql'),
  dir: packageDir('mysql'),
  via: `promise-mysql@${installedVersion('promise-mysql')}`,
});
