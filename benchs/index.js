import { usageError } from '../lib/common/errors.js';
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

/** Benches by name, in the order given; none named: the default run's. */
export function selectBenches(names) {
  if (!names || names.length === 0) return DEFAULT_BENCHES;
  const byName = new Map(BENCHES.map((b) => [b.name, b]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) {
    throw usageError(`unknown bench${unknown.length > 1 ? 'es' : ''}: ${unknown.join(', ')}`,
      `valid benches: ${BENCHES.map((b) => b.name).join(', ')}`);
  }
  return [...new Set(names)].map((n) => byName.get(n));
}
