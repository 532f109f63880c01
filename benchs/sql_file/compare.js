// A --sql bench's check: each driver's results, normalised, against the reference the harness took in
// set-up. Normalised values are plain JSON (they travel to the driver processes): null, a string, a
// number, { d } a Date's wall-clock text, { b } a Buffer's hex, { j } parsed JSON. Equal when they hold
// the same value in any driver's documented representation: a BIGINT as BigInt, number or digits; a
// DECIMAL as its text or an exact number; a date as a Date or its text (to the millisecond a Date
// holds); JSON parsed or as text; a SET as an array of its members or their comma-joined text; a FLOAT
// read through the binary protocol as its float32.
import { expect } from '../_check.js';
import { sameJson } from '../_types_check.js';
import { rowsAsObjects } from '../../lib/drivers/variants.js';

const pad = (v, n = 2) => String(v).padStart(n, '0');

/** A driver's value as plain JSON. A Date is read in the process's own zone, the zone the driver built it in. */
export function normalise(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return { d: 'invalid' };
    return { d: `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}.${pad(v.getMilliseconds(), 3)}` };
  }
  if (v instanceof Uint8Array) return { b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
  return { j: JSON.parse(JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : x))) };
}

/** A statement's reply, normalised: { columns, rows } for a result set, { affected } for an OK reply. */
export function normaliseReply(reply) {
  if (Array.isArray(reply)) {
    const columns = reply.length ? Object.keys(reply[0]) : [];
    return { columns, rows: reply.map((r) => columns.map((c) => normalise(r[c]))) };
  }
  return { affected: Number(reply?.affectedRows ?? 0) };
}

const DATE_TEXT = /^(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?)?$/;
/** A date's text to the millisecond: '2024-01-02' → '2024-01-02 00:00:00.000'. */
function dateToMs(text) {
  const m = DATE_TEXT.exec(text);
  if (!m) return null;
  return `${m[1]} ${m[2] ?? '00:00:00'}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}`;
}

const NUMBER_TEXT = /^[+-]?(\d+)(\.\d+)?$/;
/** A number's text with no redundant zeros or sign: '-001.500' → '-1.5'. */
function canonicalNumber(text) {
  if (!NUMBER_TEXT.test(text)) return null;
  let [int, frac = ''] = text.replace(/^\+/, '').split('.');
  const negative = int.startsWith('-');
  int = int.replace('-', '').replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  const out = frac ? `${int}.${frac}` : int;
  return negative && out !== '0' ? `-${out}` : out;
}

/**
 * A FLOAT read through the binary protocol (a float32, `got`) against its text (`want`, the digits the
 * server prints): equal when the float32 rounded to the text's significant digits is the text.
 */
function sameFloat(want, got) {
  if (Math.fround(got) !== got) return false;
  const digits = String(want).replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
  return digits > 0 && digits <= 21 && Number(got.toPrecision(digits)) === want;
}

const kind = (v) => (v === null ? 'null' : typeof v === 'object' ? Object.keys(v)[0] : typeof v);

/** Whether a driver's normalised value holds the reference's. */
export function sameValue(want, got) {
  if (want === got) return true;
  const [a, b] = [kind(want), kind(got)];
  if (a === 'null' || b === 'null') return false;
  if (a === 'number' && b === 'number') return !Number.isInteger(want) && (Math.fround(want) === Math.fround(got) || sameFloat(want, got) || sameFloat(got, want));
  if ((a === 'number' || a === 'string') && (b === 'number' || b === 'string')) {
    const x = canonicalNumber(String(want));
    return x !== null && x === canonicalNumber(String(got));
  }
  if (a === 'd' || b === 'd') {
    const x = a === 'd' ? want.d : a === 'string' ? dateToMs(want) : null;
    const y = b === 'd' ? got.d : b === 'string' ? dateToMs(got) : null;
    return x !== null && x === y;
  }
  if (a === 'j' || b === 'j') {
    const parse = (v, k) => { if (k === 'j') return v.j; try { return k === 'string' ? JSON.parse(v) : undefined; } catch { return undefined; } };
    const x = parse(want, a);
    const y = parse(got, b);
    if (x !== undefined && y !== undefined) return sameJson(x, y);
    // A SET column: mariadb gives its members as an array, mysql and mysql2 as the server's comma-joined text.
    const members = (v, k) => (k === 'j' && Array.isArray(v.j) && v.j.every((m) => typeof m === 'string') ? v.j.join(',') : k === 'string' ? v : null);
    return members(want, a) !== null && members(want, a) === members(got, b);
  }
  if (a === 'b' || b === 'b') {
    const hex = (v, k) => (k === 'b' ? v.b : k === 'string' ? Buffer.from(v, 'utf8').toString('hex') : null);
    return hex(want, a) !== null && hex(want, a) === hex(got, b);
  }
  return false;
}

const show = (v) => {
  const k = kind(v);
  if (k === 'd') return `date ${v.d}`;
  if (k === 'b') return `bytes 0x${v.b.length > 40 ? `${v.b.slice(0, 40)}…` : v.b}`;
  if (k === 'j') return `JSON ${JSON.stringify(v.j).slice(0, 80)}`;
  return JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…` : v);
};

/**
 * Compare one operation's replies with the reference for its parameter set; fails naming the first
 * difference: statement #, its line, row, column, expected and got.
 */
export function checkReplies(expected, replies, statements, params) {
  expect(Array.isArray(replies) && replies.length === expected.length,
    () => `expected ${expected.length} replies, got ${Array.isArray(replies) ? replies.length : typeof replies}`);
  for (let s = 0; s < expected.length; s++) {
    const want = expected[s];
    const reply = rowsAsObjects(replies[s]); // a variant with rowsAsArray: its rows by column name
    const where = () => `statement #${s + 1} (line ${statements[s].line}${params[s].length ? `, parameters ${JSON.stringify(params[s])}` : ''})`;
    if (want.affected !== undefined) {
      expect(!Array.isArray(reply) && reply && typeof reply === 'object', () => `${where()}: expected an OK reply, got ${Array.isArray(reply) ? `${reply.length} rows` : typeof reply}`);
      expect(Number(reply.affectedRows ?? 0) === want.affected, () => `${where()}: expected ${want.affected} affected rows, got ${reply.affectedRows}`);
      continue;
    }
    expect(Array.isArray(reply), () => `${where()}: expected ${want.rows.length} rows, got ${reply === null ? 'null' : typeof reply}`);
    expect(reply.length === want.rows.length, () => `${where()}: expected ${want.rows.length} rows, got ${reply.length}`);
    for (let r = 0; r < reply.length; r++) {
      const row = reply[r];
      const keys = Object.keys(row);
      expect(keys.length === want.columns.length, () => `${where()}, row ${r + 1}: expected ${want.columns.length} columns (${want.columns.join(', ')}), got ${keys.length} (${keys.join(', ')})`);
      for (let c = 0; c < keys.length; c++) {
        const got = normalise(row[keys[c]]);
        const w = want.rows[r][c];
        expect(keys[c] === want.columns[c] && sameValue(w, got),
          () => `${where()}, row ${r + 1}, column ${want.columns[c]}: expected ${show(w)}, got ${keys[c] === want.columns[c] ? show(got) : `column ${keys[c]}`}`);
      }
    }
  }
}
