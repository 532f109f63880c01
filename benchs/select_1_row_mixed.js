import { MIXED, checkOneMixedRow, createMixed, randomMixedId } from './_tables.js';

const SQL = `SELECT * FROM ${MIXED} WHERE id = ?`;

export default {
  name: 'select_1_row_mixed',
  title: 'one row of 10 mixed INT/VARCHAR columns by primary key (random id as a parameter)',
  sql: SQL,
  setup: (admin, { schema }) => createMixed(admin, schema),
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(SQL, [randomMixedId()]) }),
  check: (rows) => checkOneMixedRow(rows),
};
