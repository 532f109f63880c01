// Result checks for benches: a driver that returns wrong data fails, it is never fast.
export class CheckError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CheckError';
  }
}

export function expect(condition, message) {
  if (!condition) throw new CheckError(message);
}

/** An OK reply (no result set) with the given affected-row count and no warnings. */
export function expectOk(result, affectedRows) {
  expect(result && typeof result === 'object' && !Array.isArray(result),
    `expected an OK reply, got ${Array.isArray(result) ? `${result.length} rows` : typeof result}`);
  expect(Number(result.affectedRows) === affectedRows,
    `expected affectedRows ${affectedRows}, got ${result.affectedRows}`);
  const warnings = result.warningStatus ?? result.warningCount ?? 0;
  expect(Number(warnings) === 0, `expected no warnings, got ${warnings}`);
}

export function expectRows(rows, count) {
  expect(Array.isArray(rows), `expected a result set, got ${rows === null ? 'null' : typeof rows}`);
  expect(rows.length === count, `expected ${count} rows, got ${rows.length}`);
}
