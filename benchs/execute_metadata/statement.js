import { expect, expectRows } from '../_check.js';
import { HUNDRED_COLS } from '../_tables.js';

// One prepared statement, two ways of executing it. Bound to a number every time, its result
// columns never change, and a server that offers it (MariaDB 10.6+, MARIADB_CLIENT_CACHE_METADATA)
// skips resending the 101 column definitions to a driver that asked for that. Bound alternately to
// a number and a string, the type of `tag` changes on every execution, so the metadata must be
// sent every time: the difference between the two is what the skipping saves.
export const METADATA_SQL = `SELECT ? AS tag, t.* FROM ${HUNDRED_COLS} t`;
export const TAG = 7;

/** 1 row: tag (the number or string bound), then i1..i100 holding 1..100. */
export function checkTaggedHundredCols(rows) {
  expectRows(rows, 1);
  const row = rows[0];
  const keys = Object.keys(row);
  expect(keys.length === 101, () => `expected 101 columns, got ${keys.length}`);
  expect(row.tag === TAG || row.tag === String(TAG), () => `column tag: expected ${TAG}, got ${JSON.stringify(row.tag)}`);
  for (let i = 1; i <= 100; i++) {
    if (row[`i${i}`] !== i) expect(false, `column i${i}: expected ${i}, got ${JSON.stringify(row[`i${i}`])}`);
  }
}
