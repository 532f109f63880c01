import { expect, expectOk } from './_check.js';
import { fixedStrings, q } from './_tables.js';

const TABLE = 'pipelining_text';
const BURST = 10;
const VALUE = fixedStrings(1, 100)[0];

export default {
  name: 'pipelining',
  title: `a burst of ${BURST} INSERTs issued without waiting for replies (one op = one burst)`,
  sql: `INSERT INTO ${TABLE} (v) VALUES (?) x ${BURST} in flight`,
  statementsPerOp: BURST,
  async setup(admin, { schema, server }) {
    await admin.query(`DROP TABLE IF EXISTS ${q(schema, TABLE)}`);
    // BLACKHOLE keeps the server's work constant; without it, a plain table emptied before each driver.
    const engine = server.blackhole ? 'BLACKHOLE' : 'InnoDB';
    await admin.query(`CREATE TABLE ${q(schema, TABLE)} (v VARCHAR(100)) ENGINE=${engine}`);
  },
  async beforeWindow(admin, { schema, server }) {
    if (!server.blackhole) await admin.query(`TRUNCATE TABLE ${q(schema, TABLE)}`);
  },
  note: ({ server }) => (server.blackhole ? 'into a BLACKHOLE table' : 'no BLACKHOLE engine: into an InnoDB table emptied before each driver'),
  plan(driver) {
    const sql = `INSERT INTO ${TABLE} (v) VALUES (?)`;
    return {
      // mysql and mysql2 queue the calls and send each one after the previous reply.
      protocol: driver.capabilities.pipelining ? 'pipelined' : 'queued',
      op: (conn) => () => {
        const calls = new Array(BURST);
        for (let i = 0; i < BURST; i++) calls[i] = conn.query(sql, [VALUE]);
        return Promise.all(calls);
      },
    };
  },
  check(results) {
    expect(Array.isArray(results) && results.length === BURST, () => `expected ${BURST} replies`);
    for (const r of results) expectOk(r, 1);
  },
};
