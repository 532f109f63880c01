// The data of `select_types`: 1 000 rows of DATETIME, DATE, TIMESTAMP(6), DECIMAL(20,6), BIGINT,
// JSON and VARCHAR values, each following from the row's id. What each driver is documented to
// return for them: _types_rules.js; the check of a driver's rows against what was inserted, which
// fails on a lost digit or a shifted time: _types_check.js. No server and no driver here: the unit
// tests use it as it is.
export const TYPES_TABLE = 'select_types';
export const TYPE_ROWS = 1000;

/** The columns after `id`: name, SQL type, and the label of the representations table. */
export const TYPE_COLUMNS = Object.freeze([
  { name: 'c_datetime', type: 'DATETIME', label: 'DATETIME' },
  { name: 'c_date', type: 'DATE', label: 'DATE' },
  { name: 'c_timestamp', type: 'TIMESTAMP(6)', label: 'TIMESTAMP(6)' },
  { name: 'c_decimal', type: 'DECIMAL(20,6)', label: 'DECIMAL(20,6)' },
  { name: 'c_bigint', type: 'BIGINT', label: 'BIGINT' },
  { name: 'c_json', type: 'JSON', label: 'JSON' },
  { name: 'c_varchar', type: 'VARCHAR(255)', label: 'VARCHAR(255)' },
]);

// ---------------------------------------------------------------------------------------------
// The rows. A small integer hash keeps every value deterministic and spread out.
function hash(i, salt) {
  let x = (Math.imul(i, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca77)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
const DAY = 86400;
const dateText = (ms) => {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const dateTimeText = (ms) => {
  const d = new Date(ms);
  return `${dateText(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

// Wall-clock values at the edges of daylight saving time (US and EU) and of the century: a driver or
// a process that applies a local zone shows up there first.
const SPECIAL_DATETIMES = ['2024-03-10 02:30:00', '2024-11-03 01:30:00', '2024-03-31 02:30:00', '2024-10-27 02:30:00',
  '1999-12-31 23:59:59', '2000-01-01 00:00:00', '2000-02-29 12:00:00', '2037-12-31 23:59:59'];
const SPECIAL_TIMESTAMPS = ['1970-01-01 00:00:01.000000', '2038-01-19 03:14:07.999999', '2024-03-10 02:30:00.123456',
  '2024-11-03 01:30:00.000500', '2000-01-01 00:00:00.000999'];
const SPECIAL_DECIMALS = ['12345678901234.123456', '-99999999999999.999999', '99999999999999.999999', '0.000001',
  '-0.000001', '0.000000', '42.000000', '9007199254740.993000'];
const SPECIAL_BIGINTS = ['9223372036854775807', '-9223372036854775808', '9007199254740993', '-9007199254740993',
  '9007199254740992', '9007199254740991', '-9007199254740991', '0'];

const utcMs = (text) => Date.parse(`${text.slice(0, 10)}T${text.slice(11, 19) || '00:00:00'}Z`);

function datetimeOf(i) {
  if (i <= SPECIAL_DATETIMES.length) return SPECIAL_DATETIMES[i - 1];
  // 1971-01-01 .. 2037-12-31, to the second
  const days = hash(i, 1) % 24470;
  return dateTimeText((Date.UTC(1971, 0, 1) / 1000 + days * DAY + (hash(i, 2) % DAY)) * 1000);
}

function dateOf(i) {
  if (i === 1) return '1000-01-01';
  if (i === 2) return '9999-12-31';
  if (i === 3) return '1970-01-01';
  // 1900-01-01 .. 2099-12-31
  return dateText(Date.UTC(1900, 0, 1) + (hash(i, 3) % 73048) * DAY * 1000);
}

function timestampOf(i) {
  if (i <= SPECIAL_TIMESTAMPS.length) return SPECIAL_TIMESTAMPS[i - 1];
  // 1970-01-02 .. 2037, to the microsecond
  const seconds = DAY + (hash(i, 4) % (24400 * DAY));
  return `${dateTimeText(seconds * 1000)}.${pad(hash(i, 5) % 1000000, 6)}`;
}

function decimalOf(i) {
  if (i <= SPECIAL_DECIMALS.length) return SPECIAL_DECIMALS[i - 1];
  const h = hash(i, 6);
  const digits = 1 + (h % 14);
  let intPart = String(1 + (hash(i, 7) % 9));
  while (intPart.length < digits) intPart += String(hash(i, 8 + intPart.length) % 10);
  if (digits === 1 && h % 3 === 0) intPart = '0';
  const frac = pad(hash(i, 30) % 1000000, 6);
  const sign = (h >>> 8) % 2 && !(intPart === '0' && frac === '000000') ? '-' : '';
  return `${sign}${intPart}.${frac}`;
}

const TWO_53 = 2n ** 53n;
const MAX_BIGINT = 2n ** 63n - 1n;

function bigintOf(i) {
  if (i <= SPECIAL_BIGINTS.length) return SPECIAL_BIGINTS[i - 1];
  const negative = hash(i, 9) % 2 === 1;
  let v;
  switch (i % 4) {
    case 0: v = BigInt(hash(i, 10) % 1000000); break; // small
    case 1: v = TWO_53 - 1n - BigInt(hash(i, 11)); break; // safe, near 2^53
    default: { // beyond 2^53, up to 2^63 - 1
      const wide = ((BigInt(hash(i, 12)) << 32n) | BigInt(hash(i, 13))) & MAX_BIGINT;
      v = wide > TWO_53 ? wide : wide + TWO_53 + 1n;
    }
  }
  return String(negative && v !== 0n ? -v : v);
}

const TEXT_PIECES = ['abcdefghij', 'é', '✓', '😀', ' ', 'Zürich', '"quoted"', 'back\\slash', '日本'];

function jsonOf(i) {
  if (i % 10 === 0) return [i, `s${i}`, true, null, { k: i % 7, list: [] }];
  const value = {
    id: i,
    name: `item ${i}`,
    price: (hash(i, 14) % 100000) / 4, // quarters: exact in binary, printed the same by every JSON writer
    tags: Array.from({ length: hash(i, 15) % 4 }, (_, k) => `tag${(i + k) % 13}`),
    active: hash(i, 16) % 2 === 0,
    nested: { depth: 2, list: [1, 2, 3], note: i % 3 === 0 ? `quote " backslash \\ tab \t ${TEXT_PIECES[i % TEXT_PIECES.length]}` : null },
  };
  return value;
}

function varcharOf(i) {
  const length = 1 + (hash(i, 17) % 200);
  let s = `row ${i}: `;
  for (let k = 0; s.length < length; k++) s += TEXT_PIECES[(hash(i, 18) + k) % TEXT_PIECES.length];
  return s.slice(0, length).replace(/[\uD800-\uDBFF]$/, '.'); // never a broken surrogate pair
}

/** Row `id` as inserted: the SQL texts, and what they mean (instants, exact numbers, JSON values). */
export function typeRow(id) {
  const datetime = datetimeOf(id);
  const date = dateOf(id);
  const timestamp = timestampOf(id);
  const decimal = decimalOf(id);
  const bigint = bigintOf(id);
  const json = jsonOf(id);
  const us = Number(timestamp.slice(20));
  const big = BigInt(bigint);
  return {
    id,
    datetime: { text: datetime, ms: utcMs(datetime) },
    date: { text: date, ms: utcMs(date) },
    // A Date holds milliseconds: every driver cuts the last three digits of the microseconds.
    timestamp: { text: timestamp, ms: utcMs(timestamp) + Math.floor(us / 1000) },
    decimal: { text: decimal, canonical: canonicalDecimal(decimal) },
    bigint: { text: bigint, big, number: big >= -(TWO_53 - 1n) && big <= TWO_53 - 1n ? Number(big) : null },
    json: { text: JSON.stringify(json), value: json },
    varchar: varcharOf(id),
  };
}

/** A DECIMAL's text as a JavaScript number prints it when the number holds it exactly ('42.000000' -> '42'). */
export function canonicalDecimal(text) {
  let t = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  if (t === '-0') t = '0';
  return t;
}

let rowsCache = null;
/** Every row as inserted (computed once per process). */
export function typeRows() {
  rowsCache ??= Array.from({ length: TYPE_ROWS }, (_, k) => typeRow(k + 1));
  return rowsCache;
}

/** The values of row `r` for an INSERT with placeholders, in TYPE_COLUMNS order after id (all texts: the server parses them). */
export const insertValues = (r) => [r.id, r.datetime.text, r.date.text, r.timestamp.text, r.decimal.text, r.bigint.text, r.json.text, r.varchar];
