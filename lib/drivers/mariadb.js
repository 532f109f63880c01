// `mariadb`: text protocol (query), prepared statements (execute), bulk (batch), pipelining;
// its own pool; queryStream() for streaming.
import { COMMON_OPTIONS, adapterFields, baseOptions, installedVersion, ignoreErrorEvents, loadOnce, packageDir } from './common.js';
import { consumeRows } from './row-stream.js';
import { fillPool } from './pool-fill.js';

// MariaDB extended capability: the server may skip unchanged result metadata of prepared statements (10.6+).
const CACHE_METADATA = 1n << 36n;
const hasFlag = (flags, flag) => {
  try {
    return (BigInt(flags ?? 0) & flag) !== 0n;
  } catch {
    return false;
  }
};

/**
 * `load` resolves to the release's `mariadb` module; `name` is the label in results, `dir` where its
 * option names are read, `extraOptions` a variant row's connection options.
 */
export function createAdapter(args) {
  const { load, extraOptions = {} } = args;
  const module = loadOnce(load);
  return {
    ...adapterFields(createAdapter, args, 'mariadb'),
    capabilities: { execute: true, batch: true, pipelining: true, stream: true, pool: true },
    options: { collation: COMMON_OPTIONS.collation, trace: false, compress: false, pipelining: true, bulk: true },
    streamApi: "queryStream(sql).on('data', row)",

    async connect(target) {
      const mariadb = await module();
      const conn = await mariadb.createConnection({
        ...baseOptions(target), collation: COMMON_OPTIONS.collation, compress: false, pipelining: true, bulk: true, ...extraOptions,
      });
      ignoreErrorEvents(conn);
      const info = conn.info;
      return {
        query: (sql, params) => conn.query(sql, params),
        execute: (sql, params) => conn.execute(sql, params),
        batch: (sql, rows) => conn.batch(sql, rows),
        // The driver's streaming API: a Readable of rows, read in flowing mode, nothing kept.
        stream: (sql, params, onRow) => consumeRows(conn.queryStream(sql, params), 'data', onRow),
        // Prepared-statement metadata skipping, as negotiated in the handshake (null when unknown).
        metadataCache: info?.serverCapabilities === undefined || info?.serverCapabilities === null ? null : {
          offered: hasFlag(info.serverCapabilities, CACHE_METADATA),
          used: hasFlag(info.clientCapabilities, CACHE_METADATA),
        },
        close: () => conn.end(),
        destroy: () => conn.destroy(),
        threadId: conn.threadId,
      };
    },

    /** The driver's own pool of `size` connections (same options as a single connection). */
    async createPool(target, size) {
      const mariadb = await module();
      const pool = mariadb.createPool({
        ...baseOptions(target), collation: COMMON_OPTIONS.collation, compress: false, pipelining: true, bulk: true,
        connectionLimit: size, ...extraOptions,
      });
      ignoreErrorEvents(pool);
      await fillPool(pool, size);
      return {
        size,
        query: (sql, params) => pool.query(sql, params),
        execute: (sql, params) => pool.execute(sql, params),
        close: () => pool.end(),
      };
    },
  };
}

export default createAdapter({ load: () => import('mariadb'), version: installedVersion('mariadb'), dir: packageDir('mariadb') });
