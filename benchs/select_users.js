// Bun's claim, checked: the workload behind Bun.SQL's "faster than mysql2" figures, a SELECT * of 100
// rows of 5 columns, on one connection (select_users) and through the driver's own pool of 10 with
// 10 callers in flight (pool_select_users, whatever --concurrency says). Every row of every result
// is checked against the values its id determines.
import { expect, expectRows } from './_check.js';
import { q } from './_tables.js';

const TABLE = 'users_5_cols';
const ROWS = 100;
const POOL = 10;
const SQL = `SELECT * FROM ${TABLE} LIMIT ${ROWS}`;

const userRow = (id) => ({
  id,
  first_name: `first${id}`,
  last_name: `last${id}`,
  email: `user${id}@example.com`,
  dob: `19${String(50 + (id % 50)).padStart(2, '0')}-${String(1 + (id % 12)).padStart(2, '0')}-${String(1 + (id % 28)).padStart(2, '0')}`,
});
const KEYS = Object.keys(userRow(1));

async function setup(admin, { schema }) {
  const t = q(schema, TABLE);
  await admin.query(`DROP TABLE IF EXISTS ${t}`);
  await admin.query(`CREATE TABLE ${t} (id INT NOT NULL PRIMARY KEY, first_name VARCHAR(32) NOT NULL, last_name VARCHAR(32) NOT NULL, email VARCHAR(64) NOT NULL, dob DATE NOT NULL)`);
  const values = Array.from({ length: ROWS }, (_, i) => userRow(i + 1)).map((r) => `(${r.id}, '${r.first_name}', '${r.last_name}', '${r.email}', '${r.dob}')`);
  await admin.query(`INSERT INTO ${t} (${KEYS.join(', ')}) VALUES ${values.join(',')}`);
}

// A DATE as each driver returns it: a Date at midnight UTC (the driver processes run in UTC), or the string.
const dateText = (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

function check(rows) {
  expectRows(rows, ROWS);
  const seen = new Set();
  for (const row of rows) {
    const id = Number(row.id);
    expect(Number.isInteger(id) && id >= 1 && id <= ROWS && !seen.has(id), () => `column id: expected a new id from 1 to ${ROWS}, got ${JSON.stringify(row.id)}`);
    seen.add(id);
    const want = userRow(id);
    for (const k of KEYS) {
      const got = k === 'dob' ? dateText(row[k]) : k === 'id' ? id : row[k];
      if (got !== want[k]) expect(false, `row ${id}, column ${k}: expected ${JSON.stringify(want[k])}, got ${JSON.stringify(row[k])}`);
    }
    expect(Object.keys(row).length === KEYS.length, () => `row ${id}: expected ${KEYS.length} columns, got ${Object.keys(row).length}`);
  }
}

export default {
  name: 'select_users',
  title: `SELECT * of ${ROWS} rows × 5 columns (INT, 3 VARCHAR, DATE) on one connection: the workload of Bun.SQL's published comparison`,
  sql: SQL,
  inDefaultRun: false,
  setup,
  plan: () => ({ protocol: 'text', op: (conn) => () => conn.query(SQL) }),
  check,
};

export const poolSelectUsers = {
  name: 'pool_select_users',
  notReplayable: 'its callers share a pool: replies interleave over several connections',
  openSchedule: true, // --rate: its callers can take operations as they arrive
  title: `select_users through the driver's own pool of ${POOL}, ${POOL} callers in flight (the other half of Bun.SQL's comparison)`,
  sql: SQL,
  concurrency: POOL,
  inDefaultRun: false,
  setup,
  plan(driver) {
    if (typeof driver.createPool !== 'function') return { unsupported: 'no pool in this adapter (createPool)' };
    return { protocol: 'text', pool: true, op: (pool) => () => pool.query(SQL) };
  },
  check,
  note: () => `${POOL} callers on a pool of ${POOL}, whatever --concurrency says`,
};
