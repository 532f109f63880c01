import { MIXED, checkRandomAliasRow, createMixed, randomAliasSelect, randomMixedId } from './_tables.js';

export default {
  name: 'pool_select_random_alias',
  notReplayable: 'its callers share a pool: replies interleave over several connections',
  openSchedule: true, // --rate: its callers can take operations as they arrive
  title: 'select_random_alias through the driver\'s own pool: --concurrency callers share a pool of that size',
  sql: `SELECT *, <n> AS \`v<n>\` FROM ${MIXED} WHERE id = ?  (a new random n each call)`,
  setup: (admin, { schema }) => createMixed(admin, schema),
  plan(driver) {
    if (typeof driver.createPool !== 'function') return { unsupported: 'no pool in this adapter (createPool)' };
    return { protocol: 'text', pool: true, op: (pool) => () => pool.query(randomAliasSelect(), [randomMixedId()]) };
  },
  check: checkRandomAliasRow,
};
