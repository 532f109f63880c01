// The terminal table (cli-table3), loaded on first use. Bench modules carry their own report
// sections, and the driver processes load the bench modules to run them; they never render, so
// they never load the table library (it would add ~3 MB to every measured process).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let Table = null;

/** A cli-table3 table: `new Table(options)`, the library loaded on the first call. */
export function textTable(options) {
  Table ??= require('cli-table3');
  return new Table(options);
}
