// `mysql` through `promise-mysql`: text protocol only.
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents, once } from './common.js';

/**
 * @param {object} p
 * @param {() => Promise<object>} p.load resolves to the `promise-mysql` module (wrapping the `mysql` release to measure)
 * @param {string} p.version the `mysql` release
 * @param {string} [p.via] the `promise-mysql` release
 * @param {string} [p.name] the label in results (e.g. 'mysql@2.18.1' when several releases run)
 */
export function createAdapter({ load, version, via, name = 'mysql' }) {
  const module = once(load);
  return {
    name,
    packageName: 'mysql',
    version,
    via,
    capabilities: { execute: false, batch: false, pipelining: false },
    options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },

    async connect(target) {
      const promiseMysql = (await module()).default ?? (await module());
      // promise-mysql would otherwise reconnect on its own after a lost connection; the harness decides.
      const conn = await promiseMysql.createConnection({ ...baseOptions(target), charset: COMMON_OPTIONS.collation, reconnect: false });
      ignoreErrorEvents(conn.connection);
      return {
        query: (sql, params) => conn.query(sql, params),
        close: () => conn.end(),
        destroy: () => conn.destroy(),
        threadId: conn.threadId ?? conn.connection?.threadId,
      };
    },
  };
}

export default createAdapter({
  load: () => import('promise-mysql'),
  version: installedVersion('mysql'),
  via: `promise-mysql@${installedVersion('promise-mysql')}`,
});
