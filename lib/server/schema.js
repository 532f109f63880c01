// The harness's own schema: created and marked by the harness, refused when someone else's.
import { setupError } from '../common/errors.js';

export const MARKER_TABLE = '_mysql_driver_bench';

/** Create the schema (or adopt an empty one) and mark it; refuse a schema the harness did not create. */
export async function prepareSchema(admin, schema) {
  const exists = await admin.query('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [schema]);
  if (exists.length > 0) {
    const tables = await admin.query(
      'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [schema]);
    const names = tables.map((t) => t.TABLE_NAME);
    if (names.includes(MARKER_TABLE)) return { created: false };
    if (names.length > 0) {
      throw setupError(`schema '${schema}' exists and was not created by mysql-driver-bench (it holds ${names.length} table(s))`,
        'the harness only works in its own schema: choose another name with --database or DB_DATABASE');
    }
  } else {
    try {
      await admin.query(`CREATE DATABASE \`${schema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    } catch (err) {
      throw setupError(`cannot create schema '${schema}': ${err.sqlMessage || err.message}`,
        'grant the user CREATE on that schema, or have an administrator create it empty', err);
    }
  }
  await admin.query(`CREATE TABLE IF NOT EXISTS \`${schema}\`.\`${MARKER_TABLE}\` (created_by VARCHAR(64) NOT NULL, created_at DATETIME NOT NULL)`);
  await admin.query(`INSERT INTO \`${schema}\`.\`${MARKER_TABLE}\` VALUES ('mysql-driver-bench', NOW())`);
  return { created: exists.length === 0 };
}

/** What the server is and which features the benches depend on. */
export async function inspectServer(admin) {
  const [{ version }] = await admin.query('SELECT VERSION() AS version');
  const engines = await admin.query("SELECT ENGINE, SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'BLACKHOLE'");
  const mariadb = /mariadb/i.test(version);
  const [major, minor, patch] = version.split(/[.-]/).map(Number);
  const atLeast = (a, b, c) => major > a || (major === a && (minor > b || (minor === b && patch >= c)));
  return {
    version,
    kind: mariadb ? 'mariadb' : 'mysql',
    blackhole: engines.some((e) => e.SUPPORT === 'YES' || e.SUPPORT === 'DEFAULT'),
    // COM_STMT_BULK_EXECUTE: MariaDB 10.2.7 and later.
    bulk: mariadb && atLeast(10, 2, 7),
  };
}
