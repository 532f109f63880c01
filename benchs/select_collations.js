import { expect, expectRows } from './_check.js';

const SQL = 'SELECT * FROM information_schema.COLLATIONS';

/** A value as the reference holds it: numbers (BIGINT too) as numbers, the rest as is. */
const plain = (v) => (typeof v === 'bigint' ? Number(v) : v);

export default {
  name: 'select_collations',
  title: 'every row of information_schema.COLLATIONS: a wide, metadata-heavy result of a few hundred rows',
  sql: SQL,
  // What the server returned to the harness's own connection at setup: the reference for every
  // driver, handed to each driver's process (`shared`, as ctx.setupData).
  async setup(admin) {
    const rows = await admin.query(SQL);
    expect(Array.isArray(rows) && rows.length > 0, 'information_schema.COLLATIONS returned no rows');
    const keys = Object.keys(rows[0]);
    return { shared: { keys, rows: rows.map((r) => keys.map((k) => plain(r[k]))) } };
  },
  plan: (driver, ctx) => ({
    protocol: 'text',
    op: (conn) => () => conn.query(SQL),
    check: (rows) => checkAgainst(ctx.setupData, rows),
  }),
  check: (rows) => checkAgainst(null, rows),
};

/** The rows must equal the reference the harness's own connection got at setup. */
function checkAgainst(reference, rows) {
  expect(reference, 'no reference result (setup did not run)');
  expectRows(rows, reference.rows.length);
  const { keys } = reference;
  const got = Object.keys(rows[0]);
  expect(got.length === keys.length && got.every((k, i) => k === keys[i]), () => `expected columns ${keys.join(', ')}, got ${got.join(', ')}`);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const want = reference.rows[i];
    for (let j = 0; j < keys.length; j++) {
      const v = row[keys[j]];
      if (v !== want[j] && !(typeof v === 'bigint' && Number(v) === want[j])) {
        expect(false, () => `row ${i + 1}, column ${keys[j]}: expected ${JSON.stringify(want[j])}, got ${JSON.stringify(plain(v))}`);
      }
    }
  }
}
