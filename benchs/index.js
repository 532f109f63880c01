import { pathToFileURL } from 'node:url';
import { usageError } from '../lib/common/errors.js';
import { sqlFileBench } from './sql_file/index.js';

// --sql files, read and checked by the command line (lib/ reaches the benches through this file only).
export { parseSetupFile, parseSqlFile } from './sql_file/parse.js';
export { sqlBenchName } from './sql_file/index.js';
export { CERTIFICATE_CHECKS } from './connect.js';
import doBench from './do.js';
import insert from './insert.js';
import batch from './batch.js';
import pipelining from './pipelining.js';
import select100Cols from './select_100_cols.js';
import select1000Rows from './select_1000_rows.js';
import execute from './execute.js';
import selectParam from './select_param.js';
import select1RowMixed from './select_1_row_mixed.js';
import selectCollations from './select_collations.js';
import selectRandomAlias from './select_random_alias.js';
import poolSelect from './pool_select.js';
import poolSelectRandomAlias from './pool_select_random_alias.js';
import streamRows from './stream_rows/index.js';
import executeMetadata, { executeMetadataChanging } from './execute_metadata/index.js';
import transfer from './transfer/index.js';
import connect, { connectTls } from './connect.js';
import selectTypes from './select_types.js';
import selectUsers, { poolSelectUsers } from './select_users.js';

export const BENCHES = [
  doBench, insert, batch, pipelining, select100Cols, select1000Rows, execute,
  selectParam, select1RowMixed, selectCollations, selectRandomAlias, poolSelect, poolSelectRandomAlias,
  streamRows, executeMetadata, executeMetadataChanging, transfer,
  // Run when named only (`inDefaultRun: false`): the default run stays under four minutes.
  connect, connectTls, selectTypes, selectUsers, poolSelectUsers,
];

/** The benches a run with no bench named measures. */
export const DEFAULT_BENCHES = BENCHES.filter((b) => b.inDefaultRun !== false);

/** The design card's seven benches: a --ci run's and a driver's gate's (ci-driver) when none is named. */
export const DESIGN_BENCHES = [doBench, insert, batch, pipelining, select100Cols, select1000Rows, execute];

// Benches of the run from outside benchs/ (--bench-file, --sql), each with its source: plain JSON that
// rebuilds it in a driver or count process (loadBenchSources), where benches are found by name.
const added = [];

/** A bench from a source: { file } a module keeping the bench contract, { sql } a parsed --sql file. */
async function benchOf(source) {
  if (source.sql) return sqlFileBench(source.sql);
  const mod = await import(pathToFileURL(source.file).href);
  return mod.default;
}

/** Add the run's benches from their sources (the harness checks them first); a name taken is refused. */
export async function loadBenchSources(sources = []) {
  const loaded = [];
  for (const source of sources) {
    if (added.some((a) => JSON.stringify(a.source) === JSON.stringify(source))) continue;
    const bench = await benchOf(source);
    const taken = bench && (BENCHES.some((b) => b.name === bench.name) || added.some((a) => a.bench.name === bench.name));
    if (taken) throw usageError(`${source.file ?? source.sql.file}: a bench named ${bench.name} exists already`, 'rename the file (a --sql bench is named after its file)');
    added.push({ bench, source });
    loaded.push(bench);
  }
  return loaded;
}

/** The sources of the benches added to this run, for its child processes. */
export const addedBenchSources = () => added.map((a) => a.source);

/** A bench by name: a built-in one or one added to the run (undefined when neither). */
export const benchNamed = (name) => BENCHES.find((b) => b.name === name) ?? added.find((a) => a.bench.name === name)?.bench;

/** Benches by name, in the order given; none named: the default run's. */
export function selectBenches(names) {
  if (!names || names.length === 0) return DEFAULT_BENCHES;
  const byName = new Map([...BENCHES, ...added.map((a) => a.bench)].map((b) => [b.name, b]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) {
    throw usageError(`unknown bench${unknown.length > 1 ? 'es' : ''}: ${unknown.join(', ')}`,
      `valid benches: ${BENCHES.map((b) => b.name).join(', ')}`);
  }
  return [...new Set(names)].map((n) => byName.get(n));
}
