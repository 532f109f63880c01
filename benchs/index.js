import { usageError } from '../lib/errors.js';
import doBench from './do.js';
import insert from './insert.js';
import batch from './batch.js';
import pipelining from './pipelining.js';
import select100Cols from './select_100_cols.js';
import select1000Rows from './select_1000_rows.js';
import execute from './execute.js';

export const BENCHES = [doBench, insert, batch, pipelining, select100Cols, select1000Rows, execute];

export function selectBenches(names) {
  if (!names || names.length === 0) return BENCHES;
  const byName = new Map(BENCHES.map((b) => [b.name, b]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length) {
    throw usageError(`unknown bench${unknown.length > 1 ? 'es' : ''}: ${unknown.join(', ')}`,
      `valid benches: ${BENCHES.map((b) => b.name).join(', ')}`);
  }
  return [...new Set(names)].map((n) => byName.get(n));
}
