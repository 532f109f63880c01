import { expect, expectRows } from '../../lib/measuring/check.js';
import { HUNDRED_COLS, createHundredCols } from '../_tables.js';

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
  expect(keys.length === 101, `expected 101 columns, got ${keys.length}`);
  expect(row.tag === TAG || row.tag === String(TAG), `column tag: expected ${TAG}, got ${JSON.stringify(row.tag)}`);
  for (let i = 1; i <= 100; i++) {
    expect(row[`i${i}`] === i, `column i${i}: expected ${i}, got ${JSON.stringify(row[`i${i}`])}`);
  }
}

function variant({ name, title, changing }) {
  return {
    name,
    title,
    sql: `${METADATA_SQL}  (bound to ${changing ? `${TAG} and '${TAG}' in turn` : TAG})`,
    setup: (admin, { schema }) => createHundredCols(admin, schema),
    plan(driver) {
      if (!driver.capabilities.execute) return { unsupported: 'no prepared statements in this driver' };
      return {
        protocol: 'binary',
        op: (conn) => {
          if (!changing) {
            const params = [TAG];
            return () => conn.execute(METADATA_SQL, params);
          }
          let n = 0;
          const asNumber = [TAG];
          const asString = [String(TAG)];
          return () => conn.execute(METADATA_SQL, (n++ & 1) === 0 ? asNumber : asString);
        },
      };
    },
    check: checkTaggedHundredCols,
  };
}

export const executeMetadataChanging = variant({
  name: 'execute_metadata_changing',
  title: 'the same prepared select, its first column\'s type changing on every execution: metadata resent every time',
  changing: true,
});

export default variant({
  name: 'execute_metadata',
  title: 'a prepared 101-column select whose result columns never change: the server may skip resending metadata',
  changing: false,
});
