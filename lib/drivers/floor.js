// The wire-floor reference: the harness's own minimal protocol client (floor-client.js),
// measured like a driver so each driver's overhead above it can be shown.
import { readFileSync } from 'node:fs';
import { connectFloor } from './floor-client.js';
import { COMMON_OPTIONS } from './common.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

export default {
  name: 'floor',
  packageName: 'mysql-driver-bench floor client',
  version,
  capabilities: { floor: true, execute: false, batch: false, pipelining: false },
  options: { collation: COMMON_OPTIONS.collation, compress: false },
  async connect(target) {
    const conn = await connectFloor({ ...target, connectTimeout: COMMON_OPTIONS.connectTimeout });
    return {
      query: (sql, params) => conn.query(sql, params),
      close: () => conn.close(),
      destroy: () => conn.destroy(),
    };
  },
};
