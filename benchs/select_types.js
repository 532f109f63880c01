// select_types: 1 000 rows of the column types drivers convert (DATETIME, DATE, TIMESTAMP(6),
// DECIMAL(20,6), BIGINT with values beyond 2^53, JSON, VARCHAR), read with one text-protocol query.
// Every value of every checked result is compared with what was inserted, in the representation the
// driver is documented to return; the kinds each driver returned make the representations table.
import { expect, expectRows } from './_check.js';
import { q } from './_tables.js';
import { TYPES_TABLE, TYPE_COLUMNS, TYPE_ROWS, insertValues, typeRows } from './_types.js';
import { DRIVER_RULES, rulesFor } from './_types_rules.js';
import { makeTypeCheck, representationsOf, sameJson } from './_types_check.js';

const SQL = `SELECT * FROM ${TYPES_TABLE} ORDER BY id`;

/** The one time zone of the bench: each driver's `timezone` option and every session's time_zone (driver processes run with TZ=UTC). */
export const TIME_ZONE = '+00:00';

/**
 * What each driver needs to return exact numbers. Without these, mysql and mysql2 read a BIGINT beyond
 * 2^53 as a float that has lost digits, and mysql (even with supportBigNumbers) a DECIMAL too.
 */
export const EXACT_NUMBER_OPTIONS = Object.freeze({
  mysql: { supportBigNumbers: true, bigNumberStrings: true },
  mysql2: { supportBigNumbers: true },
  mariadb: {}, // BIGINT as BigInt and DECIMAL as a string by default
});

/** The connection options select_types gives a driver on top of the common ones. */
// A driver without connection options of this kind (bun-sql) gets none, and its row says so.
export const typeOptionsFor = (driver) => (driver.capabilities?.driverOptions === false ? {}
  : { timezone: TIME_ZONE, ...(EXACT_NUMBER_OPTIONS[driver.packageName] ?? {}) });

const describeOptions = (o) => Object.entries(o).map(([k, v]) => (v === true ? k : `${k} '${v}'`)).join(', ');

export async function createTypes(admin, schema) {
  const t = q(schema, TYPES_TABLE);
  await admin.query(`DROP TABLE IF EXISTS ${t}`);
  await admin.query(`CREATE TABLE ${t} (id INT NOT NULL PRIMARY KEY, ${TYPE_COLUMNS.map((c) => `${c.name} ${c.type} NOT NULL`).join(', ')})`);
  const rows = typeRows();
  // TIMESTAMP values are read in the session's time zone: the harness's own session too.
  const [{ tz }] = await admin.query('SELECT @@session.time_zone AS tz');
  await admin.query('SET time_zone = ?', [TIME_ZONE]);
  try {
    const placeholders = `(${['?', ...TYPE_COLUMNS.map(() => '?')].join(',')})`;
    for (let lo = 0; lo < rows.length; lo += 200) {
      const chunk = rows.slice(lo, lo + 200);
      await admin.query(`INSERT INTO ${t} VALUES ${chunk.map(() => placeholders).join(',')}`, chunk.flatMap(insertValues));
    }
    // The table holds exactly what the checks expect, read back as the server's own text.
    const back = await admin.query(`SELECT id, ${TYPE_COLUMNS.map((c) => `CAST(${c.name} AS CHAR) AS ${c.name}`).join(', ')} FROM ${t} ORDER BY id`);
    expectRows(back, TYPE_ROWS);
    back.forEach((b, i) => {
      const r = rows[i];
      const want = insertValues(r).map(String);
      const got = [b.id, ...TYPE_COLUMNS.map((c) => b[c.name])].map(String);
      want.forEach((w, k) => {
        if (got[k] === w) return;
        if (k === 6 && sameJson(JSON.parse(got[k]), r.json.value)) return; // MySQL prints JSON its own way
        expect(false, () => `set-up: row ${r.id}, ${k === 0 ? 'id' : TYPE_COLUMNS[k - 1].name} reads back as ${JSON.stringify(got[k])}, inserted ${JSON.stringify(w)}`);
      });
    });
  } finally {
    await admin.query('SET time_zone = ?', [tz]);
  }
}

/** The representations table: per column type, what each driver returned (from its checked results). */
function representationsTable(rows) {
  const cell = (row, key) => {
    if (row.status === 'n/a') return 'n/a';
    if (!row.ok) return 'FAILED';
    return row.workload?.[key] ?? '-';
  };
  const body = TYPE_COLUMNS.map((c) => [c.label, ...rows.map((r) => {
    const v = cell(r, 'representations');
    return typeof v === 'object' ? v[c.label] ?? '-' : v;
  })]);
  body.push(['driver options', ...rows.map((r) => {
    const v = cell(r, 'driverOptions');
    return typeof v === 'object' ? describeOptions(v) || '-' : v;
  })]);
  return {
    title: 'representations: the JavaScript value each driver returned per column type',
    head: ['column type', ...rows.map((r) => r.driver)],
    rows: body,
    notes: [
      'what the drivers returned in the run\'s checked results, each value equal to what was inserted in the '
        + 'representation the driver is documented to return (the warm-up\'s results checked in full, then a tenth of '
        + 'the rows of each checked result in turn, every id every time); a/b: both in one column '
        + '(mysql2 reads a BIGINT within 2^53 as a number, one beyond as a string)',
      `Date: the instant of the wall-clock value in UTC; a Date holds milliseconds, so TIMESTAMP(6) loses its last three digits in every driver (the check expects the cut value)`,
      'parsed JSON: an object or array the driver made with JSON.parse; string: the JSON text as the server sent it',
    ],
  };
}

export default {
  name: 'select_types',
  title: `${TYPE_ROWS} rows of DATETIME, DATE, TIMESTAMP(6), DECIMAL(20,6), BIGINT (beyond 2^53, both signs), JSON and VARCHAR (text protocol)`,
  sql: SQL,
  inDefaultRun: false,
  note: () => `time zone UTC for every driver: driver processes run with TZ=UTC, each driver's timezone option '${TIME_ZONE}', `
    + `every session's time_zone '${TIME_ZONE}'; exact numbers: ${Object.entries(EXACT_NUMBER_OPTIONS).map(([d, o]) => `${d} ${describeOptions(o) || 'its defaults'}`).join(', ')}`,
  setup: (admin, { schema }) => createTypes(admin, schema),
  plan(driver) {
    const { check, seen } = makeTypeCheck(rulesFor(driver.packageName));
    const options = typeOptionsFor(driver);
    return {
      protocol: 'text',
      connectOptions: options,
      // mysql and mysql2 read dates in their timezone option's zone but leave the session's alone
      // (TIMESTAMP values come in the session's zone); mariadb sets it from its timezone option.
      init: (conn) => conn.query(`SET time_zone = '${TIME_ZONE}'`),
      op: (conn) => () => conn.query(SQL),
      check,
      summarize: () => ({
        representations: representationsOf(seen),
        driverOptions: options,
        rules: DRIVER_RULES[driver.packageName] ? `${driver.packageName}'s documented representations` : 'any exact representation (an adapter of unknown rules)',
      }),
    };
  },
  // Without a plan's own (a driver's rules), any exact representation passes.
  check: (rows) => makeTypeCheck().check(rows),
  tables: (rows) => [representationsTable(rows)],
};
