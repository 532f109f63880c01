import { expect, expectOk, expectRows } from './_check.js';
import { fixedStrings, growingTable, q } from './_tables.js';

const TABLE = 'batch_text';
const ROWS = fixedStrings(100, 100).map((s) => [s]);
const target = growingTable(TABLE, 500000, 'v VARCHAR(100)');

export default {
  name: 'batch',
  title: '100 rows of 100 characters inserted at once (bulk where the driver has it, else one multi-row INSERT)',
  sql: `INSERT INTO ${TABLE} (v) VALUES (?) x 100`,
  setup: target.setup,
  beforeWindow: target.beforeWindow,
  plan(driver, { server }) {
    if (driver.capabilities.batch && server.bulk) {
      return { protocol: 'bulk', op: (conn) => () => conn.batch(`INSERT INTO ${TABLE} (v) VALUES (?)`, ROWS) };
    }
    // Nearest equivalent without a batch API: one multi-row INSERT built by the driver's own escaping.
    return { protocol: 'text multi-row', op: (conn) => () => conn.query(`INSERT INTO ${TABLE} (v) VALUES ?`, [ROWS]) };
  },
  check: (result) => expectOk(result, 100),
  async verify(admin, { schema }) {
    const rows = await admin.query(`SELECT COUNT(*) AS n, SUM(v = ?) AS first, SUM(v = ?) AS last, MAX(id) AS top FROM ${q(schema, TABLE)} WHERE id > ?`,
      [ROWS[0][0], ROWS[99][0], target.since(schema)]);
    expectRows(rows, 1);
    const { n, first, last, top } = rows[0];
    expect(Number(n) > 0 && Number(n) % 100 === 0, () => `expected a multiple of 100 rows, found ${n}`);
    expect(Number(first) === Number(n) / 100 && Number(last) === Number(n) / 100, 'inserted rows do not hold the values sent');
    target.verified(schema, top);
  },
};
