// The --sql file format and the comparison of replies (benchs/sql_file/), without a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWrite, parameterCycle, parseSet, parseSetupFile, parseSqlFile, splitSql } from '../../benchs/sql_file/parse.js';
import { checkReplies, normalise, normaliseReply, sameValue } from '../../benchs/sql_file/compare.js';
import { outsideSchema, sqlBenchName } from '../../benchs/sql_file/index.js';

test('statements split on ; outside quotes and comments; :name placeholders become ?', () => {
  const { statements, metas } = splitSql([
    '-- a comment; not a statement',
    "\\set id random(1, 10)",
    "SELECT 'a;b', \"c;d\", `e;f` FROM t WHERE id = :id AND x = ':no' /* ; :no */ AND y = :id2;",
    '# another; comment',
    "SELECT 'it''s', 'back\\'slash;' , @v := 1, a::b",
    ';;',
    'DO 1',
  ].join('\n'));
  assert.deepEqual(metas, [{ text: '\\set id random(1, 10)', line: 2 }]);
  assert.equal(statements.length, 3);
  assert.equal(statements[0].line, 3);
  assert.match(statements[0].sql, /^SELECT 'a;b', "c;d", `e;f` FROM t WHERE id = \? AND x = ':no'\s+AND y = \?$/);
  assert.deepEqual(statements[0].placeholders, ['id', 'id2']);
  assert.equal(statements[1].sql, "SELECT 'it''s', 'back\\'slash;' , @v := 1, a::b");
  assert.deepEqual(statements[1].placeholders, []);
  assert.equal(statements[1].line, 5);
  assert.deepEqual(statements[2], { sql: 'DO 1', line: 7, placeholders: [] });
});

test('\\set: random(lo, hi) and one_of(…); anything else is refused naming file:line', () => {
  assert.deepEqual(parseSet('\\set id random(-5, 10)', 'f:1'), { name: 'id', kind: 'random', lo: -5, hi: 10 });
  assert.deepEqual(parseSet('\\set id random(1, 9)   -- a comment (after the call)', 'f:1'), { name: 'id', kind: 'random', lo: 1, hi: 9 });
  assert.deepEqual(parseSet("\\set who one_of('a', 'it''s', 3, -1.5)", 'f:1'), { name: 'who', kind: 'one_of', values: ['a', "it's", 3, -1.5] });
  assert.deepEqual(parseSet("\\set who one_of('a)b', 'c') # why", 'f:1').values, ['a)b', 'c']);
  assert.throws(() => parseSet('\\set id random(1, 2) extra', 'f:5'), /f:5: \\set id needs random\(lo, hi\) or one_of/);
  assert.throws(() => parseSet('\\set id gaussian(1, 5)', 'w.sql:4'), (e) => e.exitCode === 2 && /^w\.sql:4: unknown \\set function gaussian$/.test(e.message));
  assert.throws(() => parseSet('\\set id random(5, 1)', 'w.sql:2'), /w\.sql:2: random\(5, 1\) needs lo ≤ hi/);
  assert.throws(() => parseSet('\\set id random(1.5, 2)', 'w.sql:2'), /random takes two whole numbers/);
  assert.throws(() => parseSet('\\sleep 1', 'w.sql:3'), (e) => e.exitCode === 2 && e.message === 'w.sql:3: unknown meta-command \\sleep');
  assert.throws(() => parseSet('\\set who one_of()', 'w.sql:3'), /one_of needs at least one value/);
  assert.throws(() => parseSqlFile('\\set a random(1, 2)\nSELECT :a;\n\nSELECT :b', 'w.sql'), (e) => e.exitCode === 2 && e.message === 'w.sql:4: placeholder :b has no value');
  assert.throws(() => parseSqlFile('-- nothing\n', 'e.sql'), /e\.sql: no SQL statement in it/);
  assert.throws(() => parseSetupFile('CREATE TABLE t (a INT);\nINSERT INTO t VALUES (:a)', 's.sql'), /s\.sql:2: a --setup file has no placeholders/);
});

test('writes: the first keyword decides; a session SET and a transaction\'s edges do not write', () => {
  for (const sql of ['SELECT 1', ' (SELECT 1)', 'with x as (select 1) select * from x', 'BEGIN', 'COMMIT', 'SET @a = 1', 'SHOW TABLES', 'DO 1']) assert.equal(isWrite(sql), false, sql);
  for (const sql of ['INSERT INTO t VALUES (1)', 'update t set a=1', 'DELETE FROM t', 'REPLACE INTO t VALUES (1)', 'CREATE TABLE t (a INT)',
    'DROP TABLE t', 'ALTER TABLE t ADD b INT', 'TRUNCATE t', 'SET GLOBAL max_connections = 5', "SELECT * FROM t INTO OUTFILE '/tmp/x'", 'CALL p()', 'LOAD DATA INFILE "x" INTO TABLE t']) assert.equal(isWrite(sql), true, sql);
  assert.equal(parseSqlFile('\\set id random(1, 2)\nUPDATE t SET a = 1 WHERE id = :id', 'w.sql').statements[0].write, true);
});

test('only the harness\'s schema: USE, schemas and names qualified by another schema are refused', () => {
  assert.equal(outsideSchema('INSERT INTO t SELECT * FROM mysql.user', 'mine'), null, 'reading another schema is no write');
  assert.equal(outsideSchema('INSERT INTO `mine`.t VALUES (1)', 'mine'), null);
  assert.equal(outsideSchema('SELECT 1 FROM t JOIN information_schema.TABLES x ON 1', 'mine'), null);
  assert.equal(outsideSchema('INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE t.c = t.c + 1', 'mine'), null);
  assert.equal(outsideSchema('UPDATE other.t SET c = 1', 'mine'), 'it names schema other');
  assert.equal(outsideSchema('SELECT e.emp_no FROM employees e JOIN dept_emp de ON de.emp_no = e.emp_no', 'mine'), null);
  assert.equal(outsideSchema('INSERT INTO other.t VALUES (1)', 'mine'), 'it names schema other');
  assert.equal(outsideSchema('DROP TABLE IF EXISTS `prod`.`users`', 'mine'), 'it names schema prod');
  assert.equal(outsideSchema('use prod', 'mine'), 'USE changes the schema');
  assert.equal(outsideSchema('CREATE DATABASE x', 'mine'), 'it creates, drops or alters a schema');
  assert.equal(sqlBenchName('/a/b/OLTP read-only.sql'), 'oltp_read_only');
});

test('the parameter cycle: the same seeded sets every time, within each \\set\'s range', () => {
  const parsed = parseSqlFile("\\set id random(1, 6)\n\\set who one_of('x', 'y')\nSELECT :id, :who;\nSELECT :id", 'p.sql');
  const a = parameterCycle(parsed, 64);
  assert.deepEqual(parameterCycle(parsed, 64), a, 'the same sequence in every process');
  assert.equal(a.length, 64);
  for (const [first, second] of a) {
    assert.ok(Number.isInteger(first[0]) && first[0] >= 1 && first[0] <= 6);
    assert.ok(['x', 'y'].includes(first[1]));
    assert.deepEqual(second, [first[0]], 'one value of :id per parameter set, in every statement');
  }
  assert.equal(new Set(a.map((p) => p[0][0])).size, 6, 'every value of the range drawn');
  assert.notDeepEqual(parameterCycle(parsed, 64, 7), a, 'another seed, another sequence');
});

test('normalised values: each driver\'s representation of the same value is equal, a different value is not', () => {
  const same = [
    ['12345678901234567', 12345678901234567n], ['42', 42], ['1.500000', '1.5'], ['1.500000', 1.5], ['-0.10', -0.1],
    [{ d: '2024-01-02 03:04:05.678' }, '2024-01-02 03:04:05.678901'], [{ d: '2024-01-02 00:00:00.000' }, '2024-01-02'],
    [{ j: { a: [1, 2], b: 'x' } }, '{"b": "x", "a": [1, 2]}'], [{ b: '6869' }, 'hi'], [1.1, Math.fround(1.1)], [4.66667, Math.fround(14 / 3)],
    [{ j: ['Trailers', 'Deleted Scenes'] }, 'Trailers,Deleted Scenes'], ['Trailers,Deleted Scenes', ['Trailers', 'Deleted Scenes']], [{ j: [] }, ''],
  ];
  for (const [want, got] of same) assert.ok(sameValue(want, normalise(got)), `${JSON.stringify(want)} ~ ${String(got)}`);
  const differ = [
    ['12345678901234567', 12345678901234568], ['1.500001', 1.5], [{ d: '2024-01-02 03:04:05.678' }, '2024-01-02 04:04:05'],
    [{ j: { a: 1 } }, '{"a": 2}'], ['x', null], [null, 0], [1, 2], [1.1, 1.2], ['a', 'b'], [4.66667, Math.fround(4.6667)], [4.66667, 14 / 3],
    [{ j: ['Trailers', 'Deleted Scenes'] }, 'Trailers'], ['Trailers,Commentaries', ['Trailers']], [{ j: [1, 2] }, '1,2'],
  ];
  for (const [want, got] of differ) assert.ok(!sameValue(want, normalise(got)), `${JSON.stringify(want)} ≠ ${String(got)}`);
  const local = new Date(2024, 0, 2, 3, 4, 5, 678);
  assert.deepEqual(normalise(local), { d: '2024-01-02 03:04:05.678' }, 'a Date by its wall clock in the zone it was built in');
  assert.deepEqual(normalise(Buffer.from('hi')), { b: '6869' });
});

test('checkReplies names the first difference: statement, line, parameters, row, column, expected and got', () => {
  const statements = [{ line: 3 }, { line: 4 }];
  const expected = [normaliseReply([{ id: 1, k: 7n }, { id: 2, k: 8n }]), normaliseReply({ affectedRows: 1 })];
  assert.deepEqual(JSON.parse(JSON.stringify(expected)), expected, 'plain JSON, for the driver processes');
  const params = [[1], [2]];
  checkReplies(expected, [[{ id: 1, k: 7 }, { id: 2, k: '8' }], { affectedRows: 1 }], statements, params);
  assert.throws(() => checkReplies(expected, [[{ id: 1, k: 7 }, { id: 2, k: 9 }], { affectedRows: 1 }], statements, params),
    { name: 'CheckError', message: 'statement #1 (line 3, parameters [1]), row 2, column k: expected "8", got 9' });
  assert.throws(() => checkReplies(expected, [[{ id: 1, k: 7 }], { affectedRows: 1 }], statements, params), /statement #1 .*: expected 2 rows, got 1/);
  assert.throws(() => checkReplies(expected, [[{ id: 1, k: 7 }, { id: 2, k: 8 }], { affectedRows: 0 }], statements, params),
    /statement #2 \(line 4, parameters \[2\]\): expected 1 affected rows, got 0/);
  assert.throws(() => checkReplies(expected, [[{ id: 1, kk: 7 }, { id: 2, k: 8 }], { affectedRows: 1 }], statements, params), /row 1, column k: expected "7", got column kk/);
});

test('benches from outside benchs/ are found by name once loaded from their sources, as a driver or count process loads them', async () => {
  const { addedBenchSources, benchNamed, loadBenchSources, selectBenches } = await import('../../benchs/index.js');
  assert.equal(benchNamed('my_bench'), undefined);
  const file = new URL('../../docs/examples/my-bench.js', import.meta.url).pathname;
  const sql = { name: 'unit_sql', file: 'unit_sql.sql', ...parseSqlFile('\\set id random(1, 3)\nSELECT :id AS id', 'unit_sql.sql'), prepared: true, allowWrites: false, setup: null };
  const loaded = await loadBenchSources([{ file }, { sql }]);
  assert.deepEqual(loaded.map((b) => b.name), ['my_bench', 'unit_sql']);
  assert.equal(benchNamed('my_bench'), loaded[0]);
  assert.deepEqual(selectBenches(['unit_sql', 'do']).map((b) => b.name), ['unit_sql', 'do']);
  assert.deepEqual(JSON.parse(JSON.stringify(addedBenchSources())), [{ file }, { sql }], 'plain JSON for the child processes');
  assert.deepEqual(await loadBenchSources([{ file }]), [], 'the same source again is no new bench');
  await assert.rejects(loadBenchSources([{ sql: { ...sql, file: 'other/unit_sql.sql' } }]), (e) => e.exitCode === 2 && /a bench named unit_sql exists already/.test(e.message));
  const bench = benchNamed('unit_sql');
  assert.deepEqual(bench.plan({ capabilities: { execute: false } }, {}), { unsupported: 'no prepared statements in this driver' });
  assert.equal(bench.plan({ capabilities: { execute: true }, packageName: 'mysql2' }, {}).unavailable, 'no reference replies: the set-up did not run');
  const plan = bench.plan({ capabilities: { execute: true }, packageName: 'mysql2' }, { setupData: { cycle: [[[2]], [[3]]], expected: [[normaliseReply([{ id: 2 }])], [normaliseReply([{ id: 3 }])]] } });
  assert.equal(plan.protocol, 'binary');
  assert.deepEqual(plan.connectOptions, { supportBigNumbers: true });
  const sent = [];
  const op = plan.op({ execute: async (q, p) => { sent.push(p[0]); return [{ id: p[0] === 3 ? 4 : p[0] }]; } });
  plan.check(await op());
  const altered = await op();
  assert.throws(() => plan.check(altered), /row 1, column id: expected 3, got 4/);
  plan.check(await op());
  assert.deepEqual(sent, [2, 3, 2], 'the cycle walked in order, from its start');
});
