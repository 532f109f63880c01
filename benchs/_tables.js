import { expect, expectRows } from '../lib/check.js';

// Tables shared by more than one bench. Every name lives in the harness's own schema.
export const HUNDRED_COLS = 'select_100_cols';
export const THOUSAND_ROWS = 'select_1000_rows';
export const ROW_VALUE = 'abcdefghijabcdefghijabcdefghijaa'; // 32 characters

export const q = (schema, table) => `\`${schema}\`.\`${table}\``;

export async function createHundredCols(admin, schema) {
  const cols = Array.from({ length: 100 }, (_, i) => `i${i + 1} INT`).join(', ');
  const values = Array.from({ length: 100 }, (_, i) => i + 1).join(', ');
  await admin.query(`DROP TABLE IF EXISTS ${q(schema, HUNDRED_COLS)}`);
  await admin.query(`CREATE TABLE ${q(schema, HUNDRED_COLS)} (${cols})`);
  await admin.query(`INSERT INTO ${q(schema, HUNDRED_COLS)} VALUES (${values})`);
}

export function checkHundredCols(rows) {
  expectRows(rows, 1);
  const row = rows[0];
  const keys = Object.keys(row);
  expect(keys.length === 100, `expected 100 columns, got ${keys.length}`);
  for (let i = 1; i <= 100; i++) {
    expect(row[`i${i}`] === i, `column i${i}: expected ${i}, got ${JSON.stringify(row[`i${i}`])}`);
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
