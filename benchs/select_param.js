import { expect, expectRows } from './_check.js';
import { randomInt } from './_tables.js';

export default {
  name: 'select_param',
  title: 'SELECT of one random number passed as a parameter',
  sql: 'SELECT ?',
  plan: () => ({
    protocol: 'text',
    op: (conn) => () => conn.query('SELECT ?', [randomInt()]),
  }),
  // The server names the column after the literal the driver sent, so name and value must agree.
  check(rows) {
    expectRows(rows, 1);
    const keys = Object.keys(rows[0]);
    expect(keys.length === 1, () => `expected 1 column, got ${keys.length}`);
    const value = rows[0][keys[0]];
    expect(/^\d+$/.test(keys[0]) && (value === Number(keys[0]) || (typeof value === 'bigint' && value === BigInt(keys[0]))),
      () => `expected the number sent (${keys[0]}), got ${JSON.stringify(typeof value === 'bigint' ? String(value) : value)}`);
  },
};
