// `mariadb`: text protocol (query), prepared statements (execute), bulk (batch), pipelining.
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents, once } from './common.js';

/**
 * @param {object} p
 * @param {() => Promise<object>} p.load resolves to the `mariadb` module of the release to measure
 * @param {string} p.version
 * @param {string} [p.name] the label in results (e.g. 'mariadb@3.4.0' when several releases run)
 */
export function createAdapter({ load, version, name = 'mariadb' }) {
  const module = once(load);
  return {
    name,
    packageName: 'mariadb',
    version,
    capabilities: { execute: true, batch: true, pipelining: true },
    options: { collation: COMMON_OPTIONS.collation, trace: false, compress: false, pipelining: true, bulk: true },

    async connect(target) {
      const mariadb = (await module()).default ?? (await module());
      const conn = await mariadb.createConnection({
        ...baseOptions(target), collation: COMMON_OPTIONS.collation, compress: false, pipelining: true, bulk: true,
      });
      ignoreErrorEvents(conn);
      return {
        query: (sql, params) => conn.query(sql, params),
        execute: (sql, params) => conn.execute(sql, params),
        batch: (sql, rows) => conn.batch(sql, rows),
        close: () => conn.end(),
        destroy: () => conn.destroy(),
        threadId: conn.threadId,
      };
    },
  };
}

export default createAdapter({ load: () => import('mariadb'), version: installedVersion('mariadb') });
