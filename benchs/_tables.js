import { expect, expectRows } from './_check.js';
import { decodeTextRow } from '../lib/drivers/floor-client.js';

// Tables shared by more than one bench. Every name lives in the harness's own schema.
export const HUNDRED_COLS = 'select_100_cols';
export const THOUSAND_ROWS = 'select_1000_rows';
export const ROW_VALUE = 'abcdefghijabcdefghijabcdefghijaa'; // 32 characters

export const q = (schema, table) => `\`${schema}\`.\`${table}\``;

/**
 * What a writing bench carries from one window to the next, per schema: what its last verify that
 * passed left (`pass`), taken at the next window's start (`take`: undefined when the window before
 * was not verified, since its writes are then unaccounted for), and what the current window started
 * from (`start`, `started`). `forget` when the bench sets its tables up again.
 */
export function windowCarry() {
  const passed = new Map();
  const started = new Map();
  return {
    take(schema) {
      const value = passed.get(schema);
      passed.delete(schema);
      return value;
    },
    start: (schema, value) => started.set(schema, value),
    started: (schema) => started.get(schema),
    pass: (schema, value) => passed.set(schema, value),
    forget: (schema) => passed.delete(schema),
  };
}

/**
 * An insert bench's target table (`id BIGINT AUTO_INCREMENT PRIMARY KEY, <columns>`), kept across
 * windows and emptied only once it holds more than `maxRows`: TRUNCATE recreates the table's file,
 * and done before every window its I/O waited into the measured windows
 * (docs/history/2026-11-24-limitations.md#figures-the-codes-comments-held). A window's rows are the ones above the highest id before it
 * (`since`), which is what `verify` checks. A verify that passed reports the highest id it saw
 * (`verified`), so the next window starts without a query of its own.
 */
export function growingTable(table, maxRows, columns) {
  const carry = windowCarry(); // the highest id
  return {
    async setup(admin, { schema }) {
      carry.forget(schema); // ids start again at 1
      await admin.query(`DROP TABLE IF EXISTS ${q(schema, table)}`);
      await admin.query(`CREATE TABLE ${q(schema, table)} (id BIGINT AUTO_INCREMENT PRIMARY KEY, ${columns})`);
    },
    async beforeWindow(admin, { schema }) {
      let top = carry.take(schema);
      if (top === undefined) {
        // Ids restart at 1 after TRUNCATE, so the highest id is about the row count (COUNT(*) scans).
        const [row] = await admin.query(`SELECT COALESCE(MAX(id), 0) AS top FROM ${q(schema, table)}`);
        top = Number(row.top);
      }
      if (top > maxRows) {
        await admin.query(`TRUNCATE TABLE ${q(schema, table)}`);
        top = 0;
      }
      carry.start(schema, top);
    },
    since: (schema) => carry.started(schema) ?? 0,
    verified: (schema, top) => carry.pass(schema, Number(top)),
  };
}

export async function createHundredCols(admin, schema) {
  const cols = Array.from({ length: 100 }, (_, i) => `i${i + 1} INT`).join(', ');
  const values = Array.from({ length: 100 }, (_, i) => i + 1).join(', ');
  await admin.query(`DROP TABLE IF EXISTS ${q(schema, HUNDRED_COLS)}`);
  await admin.query(`CREATE TABLE ${q(schema, HUNDRED_COLS)} (${cols})`);
  await admin.query(`INSERT INTO ${q(schema, HUNDRED_COLS)} VALUES (${values})`);
}

const HUNDRED_KEYS = Array.from({ length: 100 }, (_, i) => `i${i + 1}`);

// Runs inside the measured call (once per sampled call), so it avoids building strings.
export function checkHundredCols(rows) {
  expectRows(rows, 1);
  const row = rows[0];
  let count = 0;
  for (const key in row) if (Object.hasOwn(row, key)) count++;
  expect(count === 100, () => `expected 100 columns, got ${count}`);
  for (let i = 0; i < 100; i++) {
    const value = row[HUNDRED_KEYS[i]];
    if (value !== i + 1) expect(false, () => `column ${HUNDRED_KEYS[i]}: expected ${i + 1}, got ${JSON.stringify(value)}`);
  }
}

/** The same check on a raw reply of the floor client (no rows built): counts, then the row's values. */
export function checkHundredColsRaw(reply) {
  expect(reply.columnCount === 100 && reply.rowCount === 1, () => `expected 1 row of 100 columns, got ${reply.rowCount} of ${reply.columnCount}`);
  const values = decodeTextRow(reply.lastRow);
  for (let i = 1; i <= 100; i++) {
    if (values[i - 1] !== String(i)) expect(false, `column i${i}: expected ${i}, got ${JSON.stringify(values[i - 1])}`);
  }
}

/** `count` distinct strings of `length` ASCII characters. */
export function fixedStrings(count, length) {
  return Array.from({ length: count }, (_, i) => {
    const base = `${String.fromCharCode(97 + (i % 26))}${i}-`;
    return base.repeat(Math.ceil(length / base.length)).slice(0, length);
  });
}

export const randomInt = () => Math.floor(Math.random() * 1e9);

// ---------------------------------------------------------------------------------------------
// A table of "user-like" rows mixing INT and VARCHAR columns; every value follows from the id,
// so a check can tell a wrong value from a right one without knowing which id was asked for.
export const MIXED = 'mixed_rows';
export const MIXED_ROWS = 1000;

/** The row with primary key `id`, as every driver should return it. */
export function mixedRow(id) {
  return {
    id,
    user_name: `user${id}`,
    age: 18 + (id % 60),
    email: `user${id}@example.com`,
    score: (id * 7919) % 100000,
    country: `country-${id % 200}`,
    login_count: id * 3,
    bio: `bio of user ${id}: `.padEnd(100, 'abcdefghij'),
    flags: id % 16,
    last_ip: `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`,
  };
}
const MIXED_KEYS = Object.keys(mixedRow(1));

export async function createMixed(admin, schema) {
  const t = q(schema, MIXED);
  await admin.query(`DROP TABLE IF EXISTS ${t}`);
  await admin.query(`CREATE TABLE ${t} (id INT NOT NULL PRIMARY KEY, user_name VARCHAR(32) NOT NULL, age INT NOT NULL,
    email VARCHAR(100) NOT NULL, score INT NOT NULL, country VARCHAR(32) NOT NULL, login_count INT NOT NULL,
    bio VARCHAR(255) NOT NULL, flags INT NOT NULL, last_ip VARCHAR(45) NOT NULL)`);
  const values = [];
  for (let id = 1; id <= MIXED_ROWS; id++) {
    const r = mixedRow(id);
    values.push(`(${MIXED_KEYS.map((k) => (typeof r[k] === 'number' ? r[k] : `'${r[k]}'`)).join(', ')})`);
  }
  await admin.query(`INSERT INTO ${t} (${MIXED_KEYS.join(', ')}) VALUES ${values.join(',')}`);
}

export const randomMixedId = () => 1 + Math.floor(Math.random() * MIXED_ROWS);

/** One mixed row whose every column matches its id; `extra` more columns are allowed (checked by the caller). */
export function checkMixedRow(row, extra = 0) {
  expect(row && typeof row === 'object', () => `expected a row, got ${typeof row}`);
  const id = row.id;
  expect(Number.isInteger(id) && id >= 1 && id <= MIXED_ROWS, () => `column id: expected an id from 1 to ${MIXED_ROWS}, got ${JSON.stringify(id)}`);
  const want = mixedRow(id);
  for (const k of MIXED_KEYS) {
    if (row[k] !== want[k]) expect(false, `row ${id}, column ${k}: expected ${JSON.stringify(want[k])}, got ${JSON.stringify(row[k])}`);
  }
  const n = Object.keys(row).length;
  expect(n === MIXED_KEYS.length + extra, () => `expected ${MIXED_KEYS.length + extra} columns, got ${n}`);
}

/** The mixed row of `rows` (exactly one). */
export function checkOneMixedRow(rows, extra = 0) {
  expectRows(rows, 1);
  checkMixedRow(rows[0], extra);
}

/**
 * The SQL of a select of one mixed row by id plus a column whose alias differs on every call:
 * `v<n>` holding the number n (checked by checkRandomAliasRow).
 */
export function randomAliasSelect(table = MIXED) {
  const n = randomInt();
  return `SELECT *, ${n} AS \`v${n}\` FROM ${table} WHERE id = ?`;
}

export function checkRandomAliasRow(rows) {
  checkOneMixedRow(rows, 1);
  const row = rows[0];
  const alias = Object.keys(row).find((k) => /^v\d+$/.test(k));
  expect(alias !== undefined, () => `expected a column named v<number>, got ${Object.keys(row).join(', ')}`);
  expect(row[alias] === Number(alias.slice(1)), () => `column ${alias}: expected ${alias.slice(1)}, got ${JSON.stringify(row[alias])}`);
}

// ---------------------------------------------------------------------------------------------
// Rows of about 200 bytes for streaming reads: an INT id and a 200-character payload that follows
// from the id.
export const STREAM_TABLE = 'stream_rows';
export const STREAM_MAX_ROWS = 100000;
export const PAYLOAD_LENGTH = 200;

const payloadCode = (id) => 97 + (id % 26);

/** Throws unless `row` is row number `id` of the stream table. Cheap enough to run on every row. */
export function checkStreamRow(row, id) {
  if (row.id !== id) expect(false, () => `row ${id}: expected id ${id}, got ${JSON.stringify(row.id)}`);
  const p = row.payload;
  const c = payloadCode(id);
  if (typeof p !== 'string' || p.length !== PAYLOAD_LENGTH || p.charCodeAt(0) !== c || p.charCodeAt(PAYLOAD_LENGTH - 1) !== c
    || p.charCodeAt(PAYLOAD_LENGTH >> 1) !== c) {
    expect(false, () => `row ${id}: payload is not ${PAYLOAD_LENGTH} × '${String.fromCharCode(c)}'`);
  }
}

export const streamSql = (rows, table = STREAM_TABLE) => `SELECT id, payload FROM ${table} ORDER BY id LIMIT ${rows}`;

/** Create and fill the stream table unless it already holds exactly its rows. */
export async function createStreamRows(admin, schema, rows = STREAM_MAX_ROWS) {
  const t = q(schema, STREAM_TABLE);
  try {
    const [r] = await admin.query(`SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(id) AS hi, SUM(LENGTH(payload) = ${PAYLOAD_LENGTH}) AS ok FROM ${t}`);
    if (Number(r.n) === rows && Number(r.lo) === 1 && Number(r.hi) === rows && Number(r.ok) === rows) return;
  } catch { /* not there yet */ }
  await admin.query(`DROP TABLE IF EXISTS ${t}`);
  await admin.query(`CREATE TABLE ${t} (id INT NOT NULL PRIMARY KEY, payload VARCHAR(${PAYLOAD_LENGTH}) NOT NULL)`);
  const chunk = 5000;
  for (let lo = 1; lo <= rows; lo += chunk) {
    const values = [];
    for (let id = lo; id < lo + chunk && id <= rows; id++) values.push(`(${id},REPEAT(CHAR(${payloadCode(id)}),${PAYLOAD_LENGTH}))`);
    await admin.query(`INSERT INTO ${t} (id, payload) VALUES ${values.join(',')}`);
  }
}
