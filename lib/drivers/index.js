import { usageError } from '../errors.js';

// Loaded lazily so that `--help` and `list` do not pay for every driver's import.
const BUILTIN = {
  mysql: () => import('./mysql.js'),
  mysql2: () => import('./mysql2.js'),
  mariadb: () => import('./mariadb.js'),
};

export const BUILTIN_DRIVERS = Object.keys(BUILTIN);

export function assertDriverNames(names) {
  if (names.length === 0) throw usageError('no driver selected', `choose from: ${BUILTIN_DRIVERS.join(', ')}`);
  const unknown = names.filter((n) => !BUILTIN[n]);
  if (unknown.length) {
    throw usageError(`unknown driver${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
      `valid drivers: ${BUILTIN_DRIVERS.join(', ')}`);
  }
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw usageError(`driver '${dup}' is named twice`);
}

export async function loadDrivers(names) {
  assertDriverNames(names);
  return Promise.all(names.map(async (n) => (await BUILTIN[n]()).default));
}
