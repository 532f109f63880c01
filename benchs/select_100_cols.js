import { HUNDRED_COLS, checkHundredCols, checkHundredColsRaw, createHundredCols } from './_tables.js';

const SQL = `SELECT * FROM ${HUNDRED_COLS}`;

export default {
  name: 'select_100_cols',
  title: 'one row of 100 INT columns (text protocol)',
  sql: SQL,
  setup: (admin, { schema }) => createHundredCols(admin, schema),
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(SQL) }),
  check: checkHundredCols,
  floor: { check: checkHundredColsRaw },
};
