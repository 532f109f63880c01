// `mysql` through `promise-mysql`: text protocol only.
import promiseMysql from 'promise-mysql';
import { COMMON_OPTIONS, baseOptions, installedVersion, ignoreErrorEvents } from './common.js';

export default {
  name: 'mysql',
  packageName: 'mysql',
  version: installedVersion('mysql'),
  via: `promise-mysql@${installedVersion('promise-mysql')}`,
  capabilities: { execute: false, batch: false, pipelining: false },
  options: { charset: COMMON_OPTIONS.collation, trace: false, compress: false },

  async connect(target) {
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
