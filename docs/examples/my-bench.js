// A bench of your own, run with --bench-file docs/examples/my-bench.js: the same contract as the
// modules in benchs/ (lib/measuring/bench/bench-contract.js). One operation: the row with id = n
// of a table the set-up makes, n a number the bench draws; the check compares it with what it made.
import { expect, expectRows } from '../../benchs/_check.js';

const TABLE = 'my_bench_items';
const ROWS = 100;

export default {
  name: 'my_bench',
  title: 'one row of 100 by primary key (an example bench from a file)',
  sql: `SELECT id, label FROM ${TABLE} WHERE id = ?`,
  async setup(admin, { schema }) {
    const t = `\`${schema}\`.\`${TABLE}\``;
    await admin.query(`DROP TABLE IF EXISTS ${t}`);
    await admin.query(`CREATE TABLE ${t} (id INT PRIMARY KEY, label VARCHAR(20) NOT NULL)`);
    await admin.query(`INSERT INTO ${t} SELECT seq, CONCAT('item ', seq) FROM \`${schema}\`.seq_1_to_${ROWS}`);
  },
  plan: () => ({
    protocol: 'text',
    op: (conn) => {
      let n = 0;
      return () => {
        n = (n % ROWS) + 1;
        return conn.query(`SELECT id, label FROM ${TABLE} WHERE id = ?`, [n]);
      };
    },
  }),
  check(rows) {
    expectRows(rows, 1);
    expect(rows[0].label === `item ${rows[0].id}`, () => `expected label 'item ${rows[0].id}', got ${JSON.stringify(rows[0].label)}`);
  },
};
