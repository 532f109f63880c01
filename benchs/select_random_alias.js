import { MIXED, checkRandomAliasRow, createMixed, randomAliasSelect, randomMixedId } from './_tables.js';

export default {
  name: 'select_random_alias',
  title: 'one mixed row plus a column whose alias changes on every call: no client-side parser or metadata cache can help',
  sql: `SELECT *, <n> AS \`v<n>\` FROM ${MIXED} WHERE id = ?  (a new random n each call)`,
  setup: (admin, { schema }) => createMixed(admin, schema),
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(randomAliasSelect(), [randomMixedId()]) }),
  check: checkRandomAliasRow,
};
