import { expect, expectRows } from './_check.js';
import { ROW_VALUE, THOUSAND_ROWS, q } from './_tables.js';
import { decodeTextRow } from '../lib/drivers/floor-client.js';

const SQL = `SELECT * FROM ${THOUSAND_ROWS}`;

export default {
  name: 'select_1000_rows',
  title: '1000 rows of an INT id and a VARCHAR(32)',
  sql: SQL,
  async setup(admin, { schema }) {
    const t = q(schema, THOUSAND_ROWS);
    await admin.query(`DROP TABLE IF EXISTS ${t}`);
    await admin.query(`CREATE TABLE ${t} (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, val VARCHAR(32))`);
    const values = Array.from({ length: 1000 }, () => `('${ROW_VALUE}')`).join(',');
    await admin.query(`INSERT INTO ${t} (val) VALUES ${values}`);
  },
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(SQL) }),
  check(rows) {
    expectRows(rows, 1000);
    for (let i = 0; i < 1000; i++) {
      const r = rows[i];
      // The message only on failure: this loop runs inside the measured window.
      if (r.id !== i + 1 || r.val !== ROW_VALUE) expect(false, `row ${i + 1}: expected {id: ${i + 1}, val: '${ROW_VALUE}'}, got ${JSON.stringify(r)}`);
    }
    expect(Object.keys(rows[0]).length === 2, () => `expected 2 columns, got ${Object.keys(rows[0]).length}`);
  },
  floor: {
    check(reply) {
      expect(reply.columnCount === 2 && reply.rowCount === 1000, () => `expected 1000 rows of 2 columns, got ${reply.rowCount} of ${reply.columnCount}`);
      const last = decodeTextRow(reply.lastRow);
      expect(last[0] === '1000' && last[1] === ROW_VALUE, () => `last row: got ${JSON.stringify(last)}`);
    },
  },
};
