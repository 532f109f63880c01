// The insert benches keep their table across windows; each window is verified on its own rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import insert from '../../benchs/insert.js';
import batch from '../../benchs/batch.js';
import { useEmbeddedServer } from '../helpers/server.js';

const env = useEmbeddedServer({ prepare: true });

test('insert: a window is verified on the rows above the highest id before it', async () => {
  const { admin, target } = env;
  const ctx = { schema: target.database };
  await insert.setup(admin, ctx);
  const cols = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const right = (await import('../../benchs/_tables.js')).fixedStrings(10, 100);
  const sql = `INSERT INTO \`${ctx.schema}\`.insert_text (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;

  await insert.beforeWindow(admin, ctx);
  for (let i = 0; i < 3; i++) await admin.query(sql, right);
  await insert.verify(admin, ctx);

  // After a verify that passed, the next window starts from the highest id it saw, without a query.
  let queries = 0;
  const counting = { query: (...args) => { queries++; return admin.query(...args); } };
  await insert.beforeWindow(counting, ctx);
  assert.equal(queries, 0);
  await admin.query(sql, right);
  await insert.verify(admin, ctx);

  // The next window inserts nothing: the earlier window's rows do not make it pass.
  await insert.beforeWindow(admin, ctx);
  await assert.rejects(insert.verify(admin, ctx), /no row was inserted/);

  // A window that wrote other values fails, whatever the earlier windows wrote.
  await insert.beforeWindow(admin, ctx);
  await admin.query(sql, right.map((v, i) => (i === 9 ? `!${v.slice(1)}` : v)));
  await assert.rejects(insert.verify(admin, ctx), /do not hold the values sent/);
});

test('batch: the table is kept between windows and each window holds whole batches of the values sent', async () => {
  const { admin, target } = env;
  const ctx = { schema: target.database };
  await batch.setup(admin, ctx);
  const table = `\`${ctx.schema}\`.batch_text`;
  const rows = (await import('../../benchs/_tables.js')).fixedStrings(100, 100);
  await batch.beforeWindow(admin, ctx);
  await admin.query(`INSERT INTO ${table} (v) VALUES ${rows.map(() => '(?)').join(', ')}`, rows);
  await batch.verify(admin, ctx);
  await batch.beforeWindow(admin, ctx);
  const [{ n }] = await admin.query(`SELECT COUNT(*) AS n FROM ${table}`);
  assert.equal(Number(n), 100, 'not emptied before the window');
  await admin.query(`INSERT INTO ${table} (v) VALUES ${rows.slice(0, 50).map(() => '(?)').join(', ')}`, rows.slice(0, 50));
  await assert.rejects(batch.verify(admin, ctx), /expected a multiple of 100 rows, found 50/);
});

test('setting the table up again (the next --concurrency level) starts the ids, and the next window, from 0', async () => {
  const { admin, target } = env;
  const ctx = { schema: target.database };
  const table = `\`${ctx.schema}\`.batch_text`;
  const rows = (await import('../../benchs/_tables.js')).fixedStrings(100, 100);
  const insertBatch = () => admin.query(`INSERT INTO ${table} (v) VALUES ${rows.map(() => '(?)').join(', ')}`, rows);
  await batch.setup(admin, ctx);
  await batch.beforeWindow(admin, ctx);
  for (let i = 0; i < 3; i++) await insertBatch();
  await batch.verify(admin, ctx); // carries the highest id, 300
  await batch.setup(admin, ctx);
  await batch.beforeWindow(admin, ctx);
  await insertBatch();
  await batch.verify(admin, ctx); // rows 1-100: above 0, not above the 300 of the table before
});
