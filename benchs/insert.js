import { expect, expectOk, expectRows } from './_check.js';
import { fixedStrings, growingTable, q } from './_tables.js';

const TABLE = 'insert_text';
const VALUES = fixedStrings(10, 100);
const COLS = VALUES.map((_, i) => `t${i}`);
const target = growingTable(TABLE, 100000, COLS.map((c) => `${c} VARCHAR(100)`).join(', '));
const SQL = `INSERT INTO ${TABLE} (${COLS.join(', ')}) VALUES (${COLS.map(() => '?').join(', ')})`;

export default {
  name: 'insert',
  title: 'INSERT of one row with 10 parameters of 100 characters',
  sql: SQL,
  setup: target.setup,
  beforeWindow: target.beforeWindow,
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(SQL, VALUES) }),
  check(result) {
    expectOk(result, 1);
    expect(Number(result.insertId) > 0, () => `expected an insert id, got ${result.insertId}`);
  },
  /** After a window: the rows the driver inserted in it hold exactly the values it was given. */
  async verify(admin, { schema }) {
    const rows = await admin.query(`SELECT COUNT(*) AS n, COUNT(DISTINCT ${COLS.join(', ')}) AS d, MIN(${COLS[0]}) AS first, MAX(${COLS[9]}) AS last, MAX(id) AS top FROM ${q(schema, TABLE)} WHERE id > ?`, [target.since(schema)]);
    expectRows(rows, 1);
    const { n, d, first, last, top } = rows[0];
    expect(Number(n) > 0, 'no row was inserted');
    expect(Number(d) === 1 && first === VALUES[0] && last === VALUES[9], 'inserted rows do not hold the values sent');
    target.verified(schema, top);
  },
};
