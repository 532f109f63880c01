import { HUNDRED_COLS, checkHundredCols, createHundredCols } from './_tables.js';

const SQL = `SELECT * FROM ${HUNDRED_COLS}`;

export default {
  name: 'execute',
  title: 'the 100-column select as a prepared statement (binary protocol)',
  sql: SQL,
  setup: (admin, { schema }) => createHundredCols(admin, schema),
  plan(driver) {
    if (!driver.capabilities.execute) return { unsupported: 'no prepared statements in this driver' };
    return { protocol: 'binary', op: (conn) => () => conn.execute(SQL) };
  },
  check: checkHundredCols,
};
