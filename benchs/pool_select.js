import { MIXED, checkOneMixedRow, createMixed, randomMixedId } from './_tables.js';

const SQL = `SELECT * FROM ${MIXED} WHERE id = ?`;

export default {
  name: 'pool_select',
  notReplayable: 'its callers share a pool: replies interleave over several connections',
  openSchedule: true, // --rate: its callers can take operations as they arrive
  title: 'select_1_row_mixed through the driver\'s own pool: --concurrency callers share a pool of that size',
  sql: SQL,
  setup: (admin, { schema }) => createMixed(admin, schema),
  plan(driver) {
    if (typeof driver.createPool !== 'function') return { unsupported: 'no pool in this adapter (createPool)' };
    return { protocol: 'text', pool: true, op: (pool) => () => pool.query(SQL, [randomMixedId()]) };
  },
  check: (rows) => checkOneMixedRow(rows),
};
