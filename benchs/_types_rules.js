// select_types' representations: what kind of JavaScript value a driver returned, and what each
// driver is documented to return per column type (the data: _types.js; the check: _types_check.js).
import { TYPE_COLUMNS } from './_types.js';

// Representations: what kind of JavaScript value a driver returned.
export const KIND = Object.freeze({ DATE: 1, STRING: 2, NUMBER: 4, BIGINT: 8, PARSED: 16, OTHER: 32 });
const KIND_NAMES = [[KIND.DATE, 'Date'], [KIND.NUMBER, 'number'], [KIND.BIGINT, 'BigInt'], [KIND.STRING, 'string'],
  [KIND.PARSED, 'parsed JSON'], [KIND.OTHER, 'other']];
export const ANY = 63;

/** A set of kinds (bits of KIND) in words: 'number/string'. */
export function kindNames(bits) {
  const names = KIND_NAMES.filter(([bit]) => bits & bit).map(([, name]) => name);
  return names.length ? names.join('/') : '-';
}

export const kindOf = (v) => {
  if (typeof v === 'string') return KIND.STRING;
  if (typeof v === 'number') return KIND.NUMBER;
  if (typeof v === 'bigint') return KIND.BIGINT;
  if (v instanceof Date) return KIND.DATE;
  if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) return KIND.PARSED;
  return KIND.OTHER;
};

/**
 * Each driver's documented representation with the options select_types gives it (dates as Date,
 * `dateStrings` off; `timezone` '+00:00'). Per column: the kinds it may return. `bigintSplit`: a
 * number for a BIGINT within ±(2^53 - 1), a string beyond (mysql2's supportBigNumbers).
 */
export const DRIVER_RULES = Object.freeze({
  // supportBigNumbers + bigNumberStrings: BIGINT and DECIMAL as strings, always.
  mysql: { c_datetime: KIND.DATE, c_date: KIND.DATE, c_timestamp: KIND.DATE, c_decimal: KIND.STRING, c_bigint: KIND.STRING, c_json: KIND.STRING, c_varchar: KIND.STRING },
  // supportBigNumbers; DECIMAL as a string (decimalNumbers off); JSON parsed where the server marks the column as JSON.
  mysql2: { c_datetime: KIND.DATE, c_date: KIND.DATE, c_timestamp: KIND.DATE, c_decimal: KIND.STRING, c_bigint: KIND.NUMBER | KIND.STRING, bigintSplit: true, c_json: KIND.PARSED | KIND.STRING, c_varchar: KIND.STRING },
  // Defaults: BIGINT as BigInt (bigIntAsNumber off), DECIMAL as a string (decimalAsNumber off), JSON parsed (autoJsonMap).
  mariadb: { c_datetime: KIND.DATE, c_date: KIND.DATE, c_timestamp: KIND.DATE, c_decimal: KIND.STRING, c_bigint: KIND.BIGINT, c_json: KIND.PARSED | KIND.STRING, c_varchar: KIND.STRING },
});

/** An adapter of unknown rules (a custom module) may return any representation, as long as the value is exact. */
export const ANY_RULES = Object.freeze(Object.fromEntries(TYPE_COLUMNS.map((c) => [c.name, ANY])));

export const rulesFor = (packageName) => DRIVER_RULES[packageName] ?? ANY_RULES;
