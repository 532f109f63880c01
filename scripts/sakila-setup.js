#!/usr/bin/env node
// A --setup file for docs/examples/sakila.sql, made from MySQL's Sakila sample database as the
// employees test database's repository (github:datacharmer/test_db, sakila/) holds it: the tables of
// films, actors, customers and rentals, their rows as published, without the foreign keys, triggers and
// views (a --setup runs plain statements in the harness's own schema). The sample's data is not copied
// into this repository: this reads it from a checkout of that one.
//   node scripts/sakila-setup.js ../test_db > /tmp/sakila-setup.sql
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TABLES = ['language', 'category', 'actor', 'film', 'film_actor', 'film_category', 'customer', 'inventory', 'rental', 'payment'];

/**
 * `CREATE TABLE name (…)ENGINE=…;` of the schema file, each foreign key as the index InnoDB would give
 * it (`KEY name (columns)`): the tables are loaded apart, and the queries keep the sample's indexes.
 */
function createTable(schema, table) {
  const m = new RegExp(`^CREATE TABLE \`?${table}\`? \\((.*?)^\\)\\s*ENGINE=(\\w+)[^;]*;`, 'ms').exec(schema);
  if (!m) throw new Error(`no CREATE TABLE ${table} in the schema file`);
  const columns = (list) => list.replace(/[`\s]/g, '');
  const FK = /^\s*CONSTRAINT\s+(\w+)\s+FOREIGN KEY\s*\(([^)]*)\)/;
  const indexed = m[1].split('\n').map((l) => /^\s*(?:PRIMARY |UNIQUE )?KEY\s*\w*\s*\(([^)]*)\)/.exec(l)?.[1]).filter(Boolean).map(columns);
  const lines = [];
  for (const l of m[1].split('\n').filter((x) => x.trim())) {
    const fk = FK.exec(l);
    if (!fk) lines.push(l);
    else if (!indexed.some((cols) => `${cols},`.startsWith(`${columns(fk[2])},`))) {
      indexed.push(columns(fk[2]));
      lines.push(`  KEY ${fk[1]} (${fk[2]}),`);
    }
  }
  lines[lines.length - 1] = lines[lines.length - 1].replace(/,\s*$/, '');
  return `CREATE TABLE ${table} (\n${lines.join('\n')}\n) ENGINE=${m[2]} DEFAULT CHARSET=utf8mb4;`;
}

/** The data file's `INSERT INTO table VALUES …;` statements (each runs over lines up to one ending in `;`). */
function inserts(data, table) {
  const out = [];
  const lines = data.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!new RegExp(`^INSERT INTO \`?${table}\`? VALUES`).test(lines[i])) continue;
    const statement = [];
    for (; i < lines.length; i++) {
      statement.push(lines[i]);
      if (/;\s*$/.test(lines[i])) break;
    }
    out.push(statement.join('\n'));
  }
  if (!out.length) throw new Error(`no INSERT INTO ${table} in the data file`);
  return out;
}

function main(argv) {
  const given = argv[0];
  if (!given || given === '-h' || given === '--help') {
    process.stderr.write('usage: node scripts/sakila-setup.js <checkout of github.com/datacharmer/test_db (or its sakila/ folder)> > sakila-setup.sql\n');
    return given ? 0 : 2;
  }
  const dir = existsSync(join(given, 'sakila')) ? join(given, 'sakila') : given;
  const files = ['sakila-mv-schema.sql', 'sakila-mv-data.sql'].map((f) => join(dir, f));
  const missing = files.find((f) => !existsSync(f));
  if (missing) {
    process.stderr.write(`sakila-setup: ${missing} is not there: give a checkout of github.com/datacharmer/test_db\n`);
    return 2;
  }
  const [schema, data] = files.map((f) => readFileSync(f, 'utf8'));
  const out = ['-- Sakila (Oracle Corporation, BSD licence; as held by github.com/datacharmer/test_db), made by scripts/sakila-setup.js'];
  for (const t of [...TABLES].reverse()) out.push(`DROP TABLE IF EXISTS ${t};`);
  for (const t of TABLES) out.push(createTable(schema, t), ...inserts(data, t));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
