// `mariadb`: text protocol (query), prepared statements (execute), bulk (batch), pipelining.
import mariadb from 'mariadb';
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents } from './common.js';

export default {
  name: 'mariadb',
  packageName: 'mariadb',
  version: installedVersion('mariadb'),
  capabilities: { execute: true, batch: true, pipelining: true },
  options: { collation: COMMON_OPTIONS.collation, trace: false, compress: false, pipelining: true, bulk: true },

  async connect(target) {
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
