// Unit (no server): select_types' check against each driver's documented representation: it passes
// rows as each driver returns them, and fails on a lost digit or a time shifted by a time zone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TYPE_ROWS, typeRow, typeRows } from '../../benchs/_types.js';
import { ANY_RULES, DRIVER_RULES } from '../../benchs/_types_rules.js';
import { FULL_CHECKS, SLICES, makeTypeCheck, representationsOf, representedRow, sameJson, sameJsonRow } from '../../benchs/_types_check.js';
import selectTypes, { EXACT_NUMBER_OPTIONS, typeOptionsFor } from '../../benchs/select_types.js';
import { CheckError } from '../../benchs/_check.js';

const rowsAs = (rules, opts) => Array.from({ length: TYPE_ROWS }, (_, k) => representedRow(k + 1, rules, opts));
const failsWith = (fn, pattern) => assert.throws(fn, (err) => err instanceof CheckError && pattern.test(err.message));

test('the data: 1 000 distinct rows with BIGINTs beyond 2^53 of both signs and DECIMALs of 20 digits', () => {
  const rows = typeRows();
  assert.equal(rows.length, TYPE_ROWS);
  assert.deepEqual(typeRow(17), rows[16], 'deterministic');
  const big = rows.map((r) => r.bigint.big);
  assert.ok(big.some((b) => b > 2n ** 53n) && big.some((b) => b < -(2n ** 53n)));
  assert.ok(big.includes(2n ** 63n - 1n) && big.includes(-(2n ** 63n)));
  assert.ok(big.filter((b) => b > 2n ** 53n || b < -(2n ** 53n)).length >= 400, 'about half beyond 2^53');
  assert.ok(rows.some((r) => r.decimal.text === '12345678901234.123456'));
  for (const r of rows) {
    assert.match(r.decimal.text, /^-?\d{1,14}\.\d{6}$/);
    assert.match(r.datetime.text, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(r.timestamp.text, /^(19[7-9]\d|20[0-3]\d)-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    assert.ok(r.varchar.length >= 1 && r.varchar.length <= 200);
    assert.deepEqual(JSON.parse(r.json.text), r.json.value);
  }
  assert.equal(new Set(rows.map((r) => r.timestamp.text)).size, TYPE_ROWS);
});

test('passes correct rows in each driver\'s representation, and records what it saw', () => {
  const expected = {
    mysql: { DATETIME: 'Date', DATE: 'Date', 'TIMESTAMP(6)': 'Date', 'DECIMAL(20,6)': 'string', BIGINT: 'string', JSON: 'string', 'VARCHAR(255)': 'string' },
    mysql2: { DATETIME: 'Date', DATE: 'Date', 'TIMESTAMP(6)': 'Date', 'DECIMAL(20,6)': 'string', BIGINT: 'number/string', JSON: 'parsed JSON', 'VARCHAR(255)': 'string' },
    mariadb: { DATETIME: 'Date', DATE: 'Date', 'TIMESTAMP(6)': 'Date', 'DECIMAL(20,6)': 'string', BIGINT: 'BigInt', JSON: 'parsed JSON', 'VARCHAR(255)': 'string' },
  };
  for (const [driver, rules] of Object.entries(DRIVER_RULES)) {
    const { check, seen } = makeTypeCheck(rules);
    const rows = rowsAs(rules);
    for (let i = 0; i < FULL_CHECKS + SLICES; i++) check(rows);
    assert.deepEqual(representationsOf(seen), expected[driver], driver);
  }
  // JSON as its text, where the driver may return either.
  makeTypeCheck(DRIVER_RULES.mariadb).check(rowsAs(DRIVER_RULES.mariadb, { json: 'string' }));
  // An adapter of unknown rules: any exact representation.
  const any = makeTypeCheck(ANY_RULES);
  any.check(rowsAs(DRIVER_RULES.mysql2));
  any.check(rowsAs(DRIVER_RULES.mariadb));
  assert.equal(representationsOf(any.seen).BIGINT, 'number/BigInt/string');
});

test('fails on a DECIMAL that lost a digit, as a float or as a shortened string', () => {
  const rules = DRIVER_RULES.mysql2;
  const rows = rowsAs(rules);
  const i = rows.findIndex((r) => r.c_decimal === '12345678901234.123456');
  const lost = (value) => rows.map((r, k) => (k === i ? { ...r, c_decimal: value } : r));
  failsWith(() => makeTypeCheck(rules).check(lost('12345678901234.12346')), /DECIMAL\(20,6\) c_decimal: expected "12345678901234.123456", got string "12345678901234.12346"/);
  // As a float (mysql without bigNumberStrings, mysql2 with decimalNumbers): the number cannot hold it.
  failsWith(() => makeTypeCheck(ANY_RULES).check(lost(12345678901234.123456)), /expected 12345678901234\.123456, got number 12345678901234\.123: lost digits/);
  // A number is fine only where it is exact.
  const exact = rows.map((r) => ({ ...r, c_decimal: Number(r.c_decimal) }));
  failsWith(() => makeTypeCheck(ANY_RULES).check(exact), /lost digits/);
  // mysql2's rules: a string, never a number.
  failsWith(() => makeTypeCheck(rules).check(lost(12345678901234.123456)), /this driver returns string, got number/);
});

test('fails on a BIGINT beyond 2^53 read as a number', () => {
  const rows = rowsAs(DRIVER_RULES.mariadb);
  const i = rows.findIndex((r) => r.c_bigint === 9007199254740993n);
  const bad = rows.map((r, k) => (k === i ? { ...r, c_bigint: 9007199254740993 } : r));
  failsWith(() => makeTypeCheck(ANY_RULES).check(bad), /BIGINT c_bigint: expected 9007199254740993, got number 9007199254740992: lost digits/);
  // mysql2 returns a string beyond 2^53 and a number within.
  const m2 = rowsAs(DRIVER_RULES.mysql2);
  const safe = m2.findIndex((r) => typeof r.c_bigint === 'number' && r.c_bigint > 1000);
  failsWith(() => makeTypeCheck(DRIVER_RULES.mysql2).check(m2.map((r, k) => (k === safe ? { ...r, c_bigint: String(r.c_bigint) } : r))), /as a number/);
});

test('fails on a DATETIME shifted by one hour, and on a shifted DATE or TIMESTAMP', () => {
  for (const [driver, rules] of Object.entries(DRIVER_RULES)) {
    const rows = rowsAs(rules);
    const i = 500;
    const shifted = (col) => rows.map((r, k) => (k === i ? { ...r, [col]: new Date(r[col].getTime() + 3600000) } : r));
    failsWith(() => makeTypeCheck(rules).check(shifted('c_datetime')), /row 501, DATETIME c_datetime: .* shifted by \+1 h \(a time zone applied\)/);
    failsWith(() => makeTypeCheck(rules).check(shifted('c_date')), /DATE c_date: .*shifted by \+1 h/);
    failsWith(() => makeTypeCheck(rules).check(shifted('c_timestamp')), /TIMESTAMP\(6\) c_timestamp: .*shifted by \+1 h/);
    // A whole table read an hour off, from row 1.
    failsWith(() => makeTypeCheck(rules).check(rows.map((r) => ({ ...r, c_datetime: new Date(r.c_datetime.getTime() - 3600000) }))),
      /row 1, DATETIME c_datetime: expected 2024-03-10 02:30:00 \(2024-03-10T02:30:00.000Z\), got Date 2024-03-10T01:30:00.000Z: shifted by -1 h/, driver);
  }
});

test('TIMESTAMP(6) as a Date: the microseconds cut to milliseconds, not rounded', () => {
  const rows = rowsAs(DRIVER_RULES.mysql);
  const i = rows.findIndex((r) => r.c_timestamp.toISOString() === '2038-01-19T03:14:07.999Z');
  assert.ok(i >= 0);
  const rounded = rows.map((r, k) => (k === i ? { ...r, c_timestamp: new Date(Date.UTC(2038, 0, 19, 3, 14, 8)) } : r));
  failsWith(() => makeTypeCheck(DRIVER_RULES.mysql).check(rounded), /TIMESTAMP\(6\) c_timestamp: expected 2038-01-19 03:14:07.999999/);
});

test('fails on other wrong values: JSON, VARCHAR, a missing row, a wrong representation', () => {
  const rules = DRIVER_RULES.mariadb;
  const rows = rowsAs(rules);
  const at = (k, patch) => rows.map((r, j) => (j === k ? { ...r, ...patch } : r));
  failsWith(() => makeTypeCheck(rules).check(at(10, { c_json: { ...rows[10].c_json, price: rows[10].c_json.price + 0.25 } })), /row 11, JSON c_json/);
  failsWith(() => makeTypeCheck(rules).check(at(11, { c_json: { ...rows[11].c_json, extra: 1 } })), /row 12, JSON c_json/);
  failsWith(() => makeTypeCheck(rules).check(at(999, { c_varchar: `${rows[999].c_varchar}x` })), /row 1000, VARCHAR\(255\) c_varchar/);
  failsWith(() => makeTypeCheck(rules).check(rows.slice(1)), /expected 1000 rows, got 999/);
  failsWith(() => makeTypeCheck(rules).check(at(3, { c_bigint: String(rows[3].c_bigint) })), /this driver returns BigInt, got string/);
  failsWith(() => makeTypeCheck(DRIVER_RULES.mysql).check(rowsAs(DRIVER_RULES.mysql).map((r) => ({ ...r, c_date: r.c_date.toISOString().slice(0, 10) }))),
    /DATE c_date: this driver returns Date, got string/);
});

test('after the warm-up\'s full checks, a wrong value is caught within one round of slices', () => {
  const rules = DRIVER_RULES.mysql2;
  const rows = rowsAs(rules);
  const bad = rows.map((r, k) => (k === 737 ? { ...r, c_datetime: new Date(r.c_datetime.getTime() + 3600000) } : r));
  const { check } = makeTypeCheck(rules);
  for (let i = 0; i < FULL_CHECKS; i++) check(rows);
  let caught = 0;
  for (let i = 0; i < SLICES; i++) {
    try { check(bad); } catch (err) { assert.ok(err instanceof CheckError); caught++; }
  }
  assert.equal(caught, 1, 'exactly one slice holds row 738');
  // Ids are checked in every result.
  const swapped = rows.map((r, k) => (k === 400 ? rows[401] : k === 401 ? rows[400] : r));
  failsWith(() => check(swapped), /row 401: expected id 401, got number 402/);
});

test('the fast JSON comparison agrees with the generic one', () => {
  for (const r of typeRows()) {
    assert.equal(sameJsonRow(structuredClone(r.json.value), r.json.value), true);
    assert.equal(sameJson(JSON.parse(r.json.text), r.json.value), true);
  }
  const v = typeRow(3).json.value;
  assert.equal(sameJsonRow({ ...v, nested: { ...v.nested, note: 'x' } }, v), false);
  assert.equal(sameJsonRow({ ...v, tags: [...v.tags, 'x'] }, v), false);
});

test('each driver gets the one time zone and the options it needs for exact numbers', () => {
  assert.deepEqual(typeOptionsFor({ packageName: 'mysql' }), { timezone: '+00:00', supportBigNumbers: true, bigNumberStrings: true });
  assert.deepEqual(typeOptionsFor({ packageName: 'mysql2' }), { timezone: '+00:00', supportBigNumbers: true });
  assert.deepEqual(typeOptionsFor({ packageName: 'mariadb' }), { timezone: '+00:00' });
  assert.deepEqual(typeOptionsFor({ packageName: 'my-adapter' }), { timezone: '+00:00' });
  assert.deepEqual(Object.keys(EXACT_NUMBER_OPTIONS), ['mysql', 'mysql2', 'mariadb']);
  const plan = selectTypes.plan({ packageName: 'mysql2', name: 'mysql2' });
  assert.deepEqual(plan.connectOptions, { timezone: '+00:00', supportBigNumbers: true });
  assert.match(selectTypes.note(), /TZ=UTC.*timezone option '\+00:00'.*time_zone '\+00:00'/);
});

test('the representations table is made from what each row recorded', () => {
  const workload = (representations, driverOptions) => ({ representations, driverOptions });
  const rows = [
    { driver: 'mysql', ok: true, status: 'ok', workload: workload({ DATETIME: 'Date', BIGINT: 'string' }, { timezone: '+00:00', supportBigNumbers: true }) },
    { driver: 'mysql2', ok: true, status: 'ok', workload: workload({ DATETIME: 'Date', BIGINT: 'number/string' }, { timezone: '+00:00' }) },
    { driver: 'mariadb', ok: false, status: 'failed', error: 'boom' },
    { driver: 'floor', ok: false, status: 'n/a', error: 'not supported' },
  ];
  const [t] = selectTypes.tables(rows);
  assert.deepEqual(t.head, ['column type', 'mysql', 'mysql2', 'mariadb', 'floor']);
  assert.deepEqual(t.rows.find((r) => r[0] === 'BIGINT'), ['BIGINT', 'string', 'number/string', 'FAILED', 'n/a']);
  assert.deepEqual(t.rows.find((r) => r[0] === 'JSON'), ['JSON', '-', '-', 'FAILED', 'n/a']);
  assert.deepEqual(t.rows.at(-1), ['driver options', "timezone '+00:00', supportBigNumbers", "timezone '+00:00'", 'FAILED', 'n/a']);
});
