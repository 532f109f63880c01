// `mysql2` through its promise API: text protocol (query) and prepared statements (execute).
import mysql2 from 'mysql2/promise';
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents } from './common.js';

export default {
  name: 'mysql2',
  packageName: 'mysql2',
  version: installedVersion('mysql2'),
  capabilities: { execute: true, batch: false, pipelining: false },
  options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },

  async connect(target) {
    const conn = await mysql2.createConnection({ ...baseOptions(target), charset: COMMON_OPTIONS.collation });
    ignoreErrorEvents(conn.connection);
    ignoreErrorEvents(conn);
    return {
      query: async (sql, params) => (await conn.query(sql, params))[0],
      execute: async (sql, params) => (await conn.execute(sql, params))[0],
      close: () => conn.end(),
      destroy: () => conn.destroy(),
      threadId: conn.threadId ?? conn.connection?.threadId,
    };
  },
};
