// Result checks for benches: a driver that returns wrong data fails, it is never fast.
export class CheckError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CheckError';
  }
}

/**
 * Fails a check. `message` may be a function, called only on failure: checks run inside measured
 * windows, and a message built on every call (JSON.stringify of a row, say) is work charged to the
 * driver being measured.
 */
export function expect(condition, message) {
  if (!condition) throw new CheckError(typeof message === 'function' ? message() : message);
}

/** An OK reply (no result set) with the given affected-row count and no warnings. */
export function expectOk(result, affectedRows) {
  expect(result && typeof result === 'object' && !Array.isArray(result),
    () => `expected an OK reply, got ${Array.isArray(result) ? `${result.length} rows` : typeof result}`);
  expect(Number(result.affectedRows) === affectedRows,
    () => `expected affectedRows ${affectedRows}, got ${result.affectedRows}`);
  const warnings = result.warningStatus ?? result.warningCount ?? 0;
  expect(Number(warnings) === 0, () => `expected no warnings, got ${warnings}`);
}

export function expectRows(rows, count) {
  expect(Array.isArray(rows), () => `expected a result set, got ${rows === null ? 'null' : typeof rows}`);
  expect(rows.length === count, () => `expected ${count} rows, got ${rows.length}`);
}
