// select_types' check: a driver's rows against what was inserted (_types.js), in the representation
// the driver is documented to return (_types_rules.js); it fails on a lost digit or a shifted time.
import { expect, expectRows } from './_check.js';
import { TYPE_COLUMNS, TYPE_ROWS, typeRow, typeRows } from './_types.js';
import { ANY, ANY_RULES, KIND, kindNames, kindOf } from './_types_rules.js';

// The check.
const show = (v) => {
  if (v instanceof Date) return `Date ${Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString()}`;
  if (typeof v === 'bigint') return `BigInt ${v}n`;
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v)}`;
  if (typeof v === 'number') return `number ${v}`;
  try {
    return `${v === null ? 'null' : typeof v} ${JSON.stringify(v)?.slice(0, 80)}`;
  } catch {
    return typeof v;
  }
};

function shiftText(gotMs, wantMs) {
  const diff = gotMs - wantMs;
  if (diff !== 0 && diff % (15 * 60000) === 0) return `: shifted by ${diff > 0 ? '+' : ''}${diff / 3600000} h (a time zone applied)`;
  return '';
}

function failValue(id, col, want, got, why = '') {
  expect(false, () => `row ${id}, ${col.label} ${col.name}: expected ${want}, got ${show(got)}${why}`);
}

function checkInstant(id, col, v, e, kind) {
  if (kind === KIND.DATE) {
    const t = v.getTime();
    if (t !== e.ms) failValue(id, col, `${e.text} (${new Date(e.ms).toISOString()})`, v, shiftText(t, e.ms));
  } else if (kind === KIND.STRING) {
    if (v !== e.text) failValue(id, col, JSON.stringify(e.text), v);
  } else failValue(id, col, `${e.text} as a Date or a string`, v);
}

function checkDecimal(id, col, v, e, kind) {
  if (kind === KIND.STRING) {
    if (v !== e.text) failValue(id, col, JSON.stringify(e.text), v);
  } else if (kind === KIND.NUMBER) {
    // A number passes only when it holds the value exactly.
    if (String(v) !== e.canonical) failValue(id, col, e.text, v, Number(e.text) === v ? ': lost digits (a float cannot hold this DECIMAL)' : '');
  } else failValue(id, col, `${e.text} as a string or an exact number`, v);
}

function checkBigint(id, col, v, e, kind, split) {
  if (kind === KIND.BIGINT) {
    if (v !== e.big) failValue(id, col, `${e.text}n`, v);
  } else if (kind === KIND.STRING) {
    if (v !== e.text) failValue(id, col, JSON.stringify(e.text), v);
    if (split && e.number !== null) failValue(id, col, `${e.text} as a number (within 2^53, this driver returns a number)`, v);
  } else if (kind === KIND.NUMBER) {
    if (e.number !== null ? v !== e.number : !(Number.isInteger(v) && BigInt(v) === e.big)) {
      failValue(id, col, e.text, v, Number.isInteger(v) && Number(e.big) === v ? ': lost digits (beyond 2^53 a number cannot hold it)' : '');
    }
  } else failValue(id, col, `${e.text} as a BigInt, a string or an exact number`, v);
}

/** Deep equality of JSON values (objects' keys in any order). */
export function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!Object.hasOwn(b, k) || !sameJson(a[k], b[k])) return false;
  return true;
}

const ownKeys = (o) => Object.keys(o).length;
const sameStrings = (a, b) => {
  if (!Array.isArray(a) || a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * The JSON values jsonOf() makes, compared field by field: the same answer as sameJson() for them, at
 * a fraction of its cost (the check runs inside the measured time, and a generic walk cost more than
 * the drivers' own JSON.parse).
 */
export function sameJsonRow(v, want) {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(want)) {
    if (!Array.isArray(v) || v.length !== 5 || v[0] !== want[0] || v[1] !== want[1] || v[2] !== want[2] || v[3] !== want[3]) return false;
    const o = v[4];
    return o !== null && typeof o === 'object' && ownKeys(o) === 2 && o.k === want[4].k && Array.isArray(o.list) && o.list.length === 0;
  }
  if (Array.isArray(v) || ownKeys(v) !== 6 || v.id !== want.id || v.name !== want.name || v.price !== want.price
    || v.active !== want.active || !sameStrings(v.tags, want.tags)) return false;
  const n = v.nested;
  const w = want.nested;
  return n !== null && typeof n === 'object' && ownKeys(n) === 3 && n.depth === w.depth && n.note === w.note
    && Array.isArray(n.list) && n.list.length === 3 && n.list[0] === 1 && n.list[1] === 2 && n.list[2] === 3;
}

function checkJson(id, col, v, e, kind) {
  if (kind === KIND.PARSED) {
    if (!sameJsonRow(v, e.value)) failValue(id, col, e.text, v);
  } else if (kind === KIND.STRING) {
    if (v === e.text) return;
    // MySQL stores JSON in a binary form and prints it its own way (spaces, key order): compare the values.
    let parsed;
    try { parsed = JSON.parse(v); } catch { failValue(id, col, e.text, v, ' (not JSON)'); }
    if (!sameJson(parsed, e.value)) failValue(id, col, e.text, v);
  } else failValue(id, col, `${e.text} as parsed JSON or a string`, v);
}

const [COL_DATETIME, COL_DATE, COL_TIMESTAMP, COL_DECIMAL, COL_BIGINT, COL_JSON, COL_VARCHAR] = TYPE_COLUMNS;

/** The expected values as flat arrays, for the fast path of the check (computed once per process). */
let flatCache = null;
function flatRows() {
  if (flatCache) return flatCache;
  const rows = typeRows();
  const col = (f) => rows.map(f);
  flatCache = {
    datetimeMs: col((r) => r.datetime.ms), datetimeText: col((r) => r.datetime.text),
    dateMs: col((r) => r.date.ms), dateText: col((r) => r.date.text),
    timestampMs: col((r) => r.timestamp.ms), timestampText: col((r) => r.timestamp.text),
    decimalText: col((r) => r.decimal.text),
    bigintBig: col((r) => r.bigint.big), bigintText: col((r) => r.bigint.text), bigintNumber: col((r) => r.bigint.number),
    jsonText: col((r) => r.json.text), jsonValue: col((r) => r.json.value),
    varchar: col((r) => r.varchar),
  };
  return flatCache;
}

/** A fast test of one column's value in row i, for the kind row 0 had (anything else: false, then the diagnostic path). */
function fastInstant(kind, ms, text) {
  if (kind === KIND.DATE) return (v, i) => v instanceof Date && v.getTime() === ms[i];
  return (v, i) => v === text[i];
}

/** Results checked in full before the check starts taking a slice of the rows (the warm-up runs at least three). */
export const FULL_CHECKS = 3;
/** After those, each checked result: all 1 000 ids, row 1, and a tenth of the rows in full, a different tenth each time. */
export const SLICES = 10;

/**
 * A check of select_types results for one driver's rules. Throws a CheckError naming the row, the
 * column and what is wrong. ORs the kinds it saw into `seen` (one bit set per column, in TYPE_COLUMNS
 * order): what the representations table shows.
 *
 * It runs inside the measured time, as every bench's check does, and a check of all 7 000 values
 * cost 4 to 10 % of the operation here, more for the drivers that parse JSON: so the first
 * FULL_CHECKS results (the warm-up's) are checked in full, and after that each checked result has its
 * row count, column count, every id and row 1 checked, and one tenth of its rows in full, the next
 * tenth the next time (every value of the result is checked over SLICES checked results). Row 1 goes
 * through the full per-value rules, which fixes each column's kind; the other rows are compared with
 * tests specialised to those kinds, and a row that does not match goes through the full rules,
 * which say what is wrong (or record a kind that is allowed but new, as mysql2's BIGINT number/string).
 */
export function makeTypeCheck(rules = ANY_RULES, seen = new Array(TYPE_COLUMNS.length).fill(0)) {
  const allowed = TYPE_COLUMNS.map((c) => rules[c.name] ?? ANY);
  const split = Boolean(rules.bigintSplit);
  const kindCheck = (id, i, v) => {
    const k = kindOf(v);
    seen[i] |= k;
    if (!(allowed[i] & k)) {
      const col = TYPE_COLUMNS[i];
      expect(false, () => `row ${id}, ${col.label} ${col.name}: this driver returns ${kindNames(allowed[i])}, got ${show(v)}`);
    }
    return k;
  };
  const want = typeRows();
  /** Every value of row i by the full rules: throws on the first wrong one. Returns the kinds seen. */
  const fullRow = (r, i) => {
    const e = want[i];
    if (r === null || typeof r !== 'object') expect(false, () => `row ${i + 1}: expected a row object, got ${show(r)}`);
    const id = e.id;
    if (r.id !== id) expect(false, () => `row ${i + 1}: expected id ${id}, got ${show(r.id)}`);
    const kinds = [];
    let v = r.c_datetime;
    checkInstant(id, COL_DATETIME, v, e.datetime, kinds[0] = kindCheck(id, 0, v));
    v = r.c_date;
    checkInstant(id, COL_DATE, v, e.date, kinds[1] = kindCheck(id, 1, v));
    v = r.c_timestamp;
    checkInstant(id, COL_TIMESTAMP, v, e.timestamp, kinds[2] = kindCheck(id, 2, v));
    v = r.c_decimal;
    checkDecimal(id, COL_DECIMAL, v, e.decimal, kinds[3] = kindCheck(id, 3, v));
    v = r.c_bigint;
    checkBigint(id, COL_BIGINT, v, e.bigint, kinds[4] = kindCheck(id, 4, v), split);
    v = r.c_json;
    checkJson(id, COL_JSON, v, e.json, kinds[5] = kindCheck(id, 5, v));
    v = r.c_varchar;
    if ((kinds[6] = kindCheck(id, 6, v)) !== KIND.STRING || v !== e.varchar) failValue(id, COL_VARCHAR, JSON.stringify(e.varchar), v);
    return kinds;
  };
  const f = flatRows();
  let calls = 0;
  const check = (rows) => {
    expectRows(rows, TYPE_ROWS);
    const k = fullRow(rows[0], 0);
    const n = Object.keys(rows[0]).length;
    expect(n === TYPE_COLUMNS.length + 1, () => `expected ${TYPE_COLUMNS.length + 1} columns, got ${n}`);
    const datetime = fastInstant(k[0], f.datetimeMs, f.datetimeText);
    const date = fastInstant(k[1], f.dateMs, f.dateText);
    const timestamp = fastInstant(k[2], f.timestampMs, f.timestampText);
    const decimal = k[3] === KIND.STRING ? (v, i) => v === f.decimalText[i] : () => false;
    // BIGINT may change kind from row to row (mysql2): a string is fast only where the rules allow it.
    let bigKinds = 0;
    const bigint = k[4] === KIND.BIGINT ? (v, i) => v === f.bigintBig[i]
      : split ? (v, i) => {
        if (typeof v === 'number') {
          bigKinds |= KIND.NUMBER;
          return v === f.bigintNumber[i];
        }
        bigKinds |= KIND.STRING;
        return f.bigintNumber[i] === null && v === f.bigintText[i];
      }
        : k[4] === KIND.STRING ? (v, i) => v === f.bigintText[i] : () => false;
    const json = k[5] === KIND.PARSED ? (v, i) => sameJsonRow(v, f.jsonValue[i]) : (v, i) => v === f.jsonText[i];
    const varchar = f.varchar;
    // All rows for the first results, then one slice of them; every id every time.
    const full = calls < FULL_CHECKS;
    const slice = full ? 0 : (calls - FULL_CHECKS) % SLICES;
    calls++;
    for (let i = 1; i < TYPE_ROWS; i++) {
      const r = rows[i];
      if (r === null || typeof r !== 'object' || r.id !== i + 1) fullRow(r, i);
      if (!full && i % SLICES !== slice) continue;
      if (!datetime(r.c_datetime, i) || !date(r.c_date, i) || !timestamp(r.c_timestamp, i)
        || !decimal(r.c_decimal, i) || !bigint(r.c_bigint, i) || !json(r.c_json, i) || r.c_varchar !== varchar[i]) {
        fullRow(r, i); // says what is wrong; passes only for a value right in another allowed kind
      }
    }
    seen[4] |= bigKinds;
  };
  return { check, seen };
}

/** The kinds seen, as the results record them: { 'DATETIME': 'Date', 'BIGINT': 'number/string', ... }. */
export function representationsOf(seen) {
  return Object.fromEntries(TYPE_COLUMNS.map((c, i) => [c.label, kindNames(seen[i])]));
}

/**
 * Row `id` as a driver following `rules` returns it (for tests: the check must pass on these).
 * `json`: 'parsed' or 'string' where the rules allow both.
 */
export function representedRow(id, rules, { json = 'parsed' } = {}) {
  const e = typeRow(id);
  const pick = (name) => rules[name] ?? ANY;
  const dateOrText = (name, x) => (pick(name) & KIND.DATE ? new Date(x.ms) : x.text);
  const big = pick('c_bigint');
  let bigint;
  if (rules.bigintSplit) bigint = e.bigint.number ?? e.bigint.text;
  else if (big & KIND.BIGINT) bigint = e.bigint.big;
  else if (big & KIND.STRING) bigint = e.bigint.text;
  else bigint = e.bigint.number;
  const jsonAllowed = pick('c_json');
  const parsed = jsonAllowed & KIND.PARSED && (json === 'parsed' || !(jsonAllowed & KIND.STRING));
  return {
    id,
    c_datetime: dateOrText('c_datetime', e.datetime),
    c_date: dateOrText('c_date', e.date),
    c_timestamp: dateOrText('c_timestamp', e.timestamp),
    c_decimal: pick('c_decimal') & KIND.STRING ? e.decimal.text : Number(e.decimal.text),
    c_bigint: bigint,
    c_json: parsed ? structuredClone(e.json.value) : e.json.text,
    c_varchar: e.varchar,
  };
}
