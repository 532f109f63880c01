import { expectOk } from './_check.js';
import { randomInt } from './_tables.js';

export default {
  name: 'do',
  title: 'DO with a random number: the lightest round trip',
  sql: 'DO ?',
  plan: () => ({
    protocol: 'text',
    op: (conn) => () => conn.query('DO ?', [randomInt()]),
  }),
  check: (result) => expectOk(result, 0),
  floor: { check: (result) => expectOk(result, 0) },
};
