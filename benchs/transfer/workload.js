// A payments-style OLTP workload (after "Reserva", ../shared/seeds/004): users with tokens, accounts
// with cards and approvers, and a table of transfers. One transaction authenticates the requester,
// looks up the card and its account, authenticates the approver, then moves an amount between two
// accounts and records the transfer, all between START TRANSACTION and COMMIT. Deadlocks and lock
// wait timeouts are retried and counted. Money is conserved: the check at the end of every cell
// compares each balance with its transfers, the sum of all balances with the seed, and the number of
// transfer rows with the number of transactions the driver saw committed.
import { createHash } from 'node:crypto';
import { CheckError, expect, expectOk, expectRows } from '../_check.js';

export const DEFAULT_ACCOUNTS = 10000;
export const INITIAL_BALANCE = 1000000; // cents
export const MAX_AMOUNT = 1000;
export const MAX_ATTEMPTS = 20;
const ER_LOCK_WAIT_TIMEOUT = 1205;
const ER_LOCK_DEADLOCK = 1213;

export const T = {
  users: 'transfer_users',
  tokens: 'transfer_tokens',
  accounts: 'transfer_accounts',
  cards: 'transfer_cards',
  approvers: 'transfer_approvers',
  transfers: 'transfer_transfers',
};

export const SQL = {
  requester: `SELECT u.id AS user_id, u.active FROM ${T.tokens} k JOIN ${T.users} u ON u.id = k.user_id WHERE k.token = ?`,
  card: `SELECT c.account_id, a.user_id, c.active FROM ${T.cards} c JOIN ${T.accounts} a ON a.id = c.account_id WHERE c.number = ?`,
  approver: `SELECT ap.account_id, ap.user_id FROM ${T.tokens} k JOIN ${T.approvers} ap ON ap.user_id = k.user_id WHERE k.token = ? AND ap.account_id = ?`,
  debit: `UPDATE ${T.accounts} SET balance = balance - ? WHERE id = ? AND balance >= ?`,
  credit: `UPDATE ${T.accounts} SET balance = balance + ? WHERE id = ?`,
  record: `INSERT INTO ${T.transfers} (from_account, to_account, amount, requested_by, approved_by) VALUES (?, ?, ?, ?, ?)`,
};

const qt = (schema, table) => `\`${schema}\`.\`${table}\``;

/** The seeded identities, as the application keeps them in memory (user i owns account i and card i). */
export function identities(accounts) {
  const token = (user) => createHash('md5').update(`mysql-driver-bench user ${user}`).digest('hex');
  const tokens = new Array(accounts + 1);
  for (let u = 1; u <= accounts; u++) tokens[u] = token(u);
  return {
    accounts,
    tokens,
    card: (account) => String(4000000000000000 + account),
    approverOf: (account) => (account % accounts) + 1,
  };
}

async function countsMatch(admin, schema, accounts) {
  try {
    for (const table of [T.users, T.tokens, T.accounts, T.cards, T.approvers]) {
      const [r] = await admin.query(`SELECT COUNT(*) AS n FROM ${qt(schema, table)}`);
      if (Number(r.n) !== accounts) return false;
    }
    await admin.query(`SELECT COUNT(*) FROM ${qt(schema, T.transfers)}`);
    return true;
  } catch {
    return false;
  }
}

/** Create and seed the tables unless they already hold `accounts` of everything. */
export async function seed(admin, schema, accounts) {
  if (await countsMatch(admin, schema, accounts)) return { seeded: false };
  const id = identities(accounts);
  for (const table of Object.values(T)) await admin.query(`DROP TABLE IF EXISTS ${qt(schema, table)}`);
  await admin.query(`CREATE TABLE ${qt(schema, T.users)} (id INT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL, active TINYINT NOT NULL)`);
  await admin.query(`CREATE TABLE ${qt(schema, T.tokens)} (token CHAR(32) NOT NULL PRIMARY KEY, user_id INT NOT NULL, KEY (user_id))`);
  await admin.query(`CREATE TABLE ${qt(schema, T.accounts)} (id INT NOT NULL PRIMARY KEY, user_id INT NOT NULL,
    balance BIGINT NOT NULL, initial_balance BIGINT NOT NULL, KEY (user_id))`);
  await admin.query(`CREATE TABLE ${qt(schema, T.cards)} (number CHAR(16) NOT NULL PRIMARY KEY, account_id INT NOT NULL,
    active TINYINT NOT NULL, KEY (account_id))`);
  await admin.query(`CREATE TABLE ${qt(schema, T.approvers)} (account_id INT NOT NULL, user_id INT NOT NULL, PRIMARY KEY (account_id, user_id))`);
  await admin.query(`CREATE TABLE ${qt(schema, T.transfers)} (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    from_account INT NOT NULL, to_account INT NOT NULL, amount INT NOT NULL, requested_by INT NOT NULL, approved_by INT NOT NULL,
    created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))`);
  const chunk = 5000;
  for (let lo = 1; lo <= accounts; lo += chunk) {
    const ids = [];
    for (let i = lo; i < lo + chunk && i <= accounts; i++) ids.push(i);
    const insert = (table, cols, row) => admin.query(`INSERT INTO ${qt(schema, table)} (${cols}) VALUES ${ids.map(row).join(',')}`);
    await insert(T.users, 'id, name, active', (i) => `(${i}, 'user ${i}', 1)`);
    await insert(T.tokens, 'token, user_id', (i) => `('${id.tokens[i]}', ${i})`);
    await insert(T.accounts, 'id, user_id, balance, initial_balance', (i) => `(${i}, ${i}, ${INITIAL_BALANCE}, ${INITIAL_BALANCE})`);
    await insert(T.cards, 'number, account_id, active', (i) => `('${id.card(i)}', ${i}, 1)`);
    await insert(T.approvers, 'account_id, user_id', (i) => `(${i}, ${id.approverOf(i)})`);
  }
  return { seeded: true };
}

/** Every balance back to its seed, no transfers. */
export async function resetBalances(admin, schema) {
  await admin.query(`UPDATE ${qt(schema, T.accounts)} SET balance = initial_balance WHERE balance <> initial_balance`);
  await admin.query(`TRUNCATE TABLE ${qt(schema, T.transfers)}`);
}

export const newStats = () => ({ committed: 0, declined: 0, retries: 0, deadlocks: 0, lockWaitTimeouts: 0 });

const errnoOf = (err) => Number(err?.errno ?? err?.errorno ?? 0);
const randInt = (n) => Math.floor(Math.random() * n); // 0 .. n-1

/**
 * One transfer on `conn` (an adapter connection), retried on deadlock or lock wait timeout.
 * Resolves to the driver's replies, in order: START TRANSACTION, requester, card, approver, debit,
 * credit, record, COMMIT (a declined transfer ends after the debit with ROLLBACK; `declined` is set).
 * `counters` are objects whose fields are incremented (newStats()).
 */
export async function transferOnce(conn, id, counters) {
  const bump = (field) => { for (const c of counters) c[field]++; };
  const from = 1 + randInt(id.accounts);
  let to = 1 + randInt(id.accounts - 1);
  if (to >= from) to++;
  const amount = 1 + randInt(MAX_AMOUNT);
  const approver = id.approverOf(from);
  for (let attempt = 1; ; attempt++) {
    try {
      const steps = [];
      steps.push(await conn.query('START TRANSACTION'));
      steps.push(await conn.query(SQL.requester, [id.tokens[from]]));
      steps.push(await conn.query(SQL.card, [id.card(from)]));
      steps.push(await conn.query(SQL.approver, [id.tokens[approver], from]));
      const debit = await conn.query(SQL.debit, [amount, from, amount]);
      steps.push(debit);
      if (Number(debit?.affectedRows) === 0) {
        steps.push(await conn.query('ROLLBACK'));
        steps.declined = true;
        bump('declined');
        return steps;
      }
      steps.push(await conn.query(SQL.credit, [amount, to]));
      steps.push(await conn.query(SQL.record, [from, to, amount, from, approver]));
      steps.push(await conn.query('COMMIT'));
      bump('committed');
      return steps;
    } catch (err) {
      const code = errnoOf(err);
      if (code !== ER_LOCK_DEADLOCK && code !== ER_LOCK_WAIT_TIMEOUT) throw err;
      bump(code === ER_LOCK_DEADLOCK ? 'deadlocks' : 'lockWaitTimeouts');
      // A deadlock victim's transaction is already rolled back; after a lock wait timeout only the statement is.
      await conn.query('ROLLBACK');
      if (attempt >= MAX_ATTEMPTS) throw new Error(`transfer gave up after ${attempt} attempts: ${err.sqlMessage || err.message}`);
      bump('retries');
    }
  }
}

/** What one transfer's replies must look like. */
export function checkTransfer(steps) {
  expect(Array.isArray(steps), () => `expected the replies of one transfer, got ${typeof steps}`);
  const expectedSteps = steps.declined ? 6 : 8;
  expect(steps.length === expectedSteps, () => `expected ${expectedSteps} replies, got ${steps.length}`);
  const [begin, requester, card, approver, debit] = steps;
  expectOk(begin, 0);
  expectRows(requester, 1);
  expectRows(card, 1);
  expectRows(approver, 1);
  const r = requester[0];
  const c = card[0];
  const a = approver[0];
  expect(r.active === 1, () => `requester ${r.user_id} is not active (active = ${JSON.stringify(r.active)})`);
  expect(c.active === 1, () => `card of account ${c.account_id} is not active`);
  expect(c.user_id === r.user_id, () => `the card's account belongs to user ${c.user_id}, not to the requester ${r.user_id}`);
  expect(a.account_id === c.account_id, () => `the approver is for account ${a.account_id}, not ${c.account_id}`);
  expect(Number.isInteger(a.user_id) && a.user_id !== r.user_id, () => `approver ${a.user_id} must be another user than the requester ${r.user_id}`);
  if (steps.declined) {
    expectOk(debit, 0);
    expectOk(steps[5], 0);
    return;
  }
  const [, , , , , credit, record, commit] = steps;
  expectOk(debit, 1);
  expectOk(credit, 1);
  expectOk(record, 1);
  expect(Number(record.insertId) > 0, () => `expected the transfer's id, got ${record.insertId}`);
  expectOk(commit, 0);
}

/**
 * Money conservation after a cell: each balance equals its seed plus what its transfers moved,
 * the sum of balances equals the seed's, and there is one transfer row per committed transaction.
 */
export async function verifyMoney(admin, schema, { accounts, committed }) {
  const [acc] = await admin.query(`SELECT COUNT(*) AS n, SUM(balance) AS total, SUM(balance < 0) AS negative FROM ${qt(schema, T.accounts)}`);
  const expectedTotal = accounts * INITIAL_BALANCE;
  const total = Number(acc.total);
  if (total !== expectedTotal) {
    throw new CheckError(`money not conserved: the sum of all balances is ${total}, not ${expectedTotal} (${total > expectedTotal ? '+' : ''}${total - expectedTotal})`);
  }
  expect(Number(acc.n) === accounts, () => `expected ${accounts} accounts, found ${acc.n}`);
  expect(Number(acc.negative) === 0, () => `${acc.negative} account(s) with a negative balance`);
  const [tr] = await admin.query(`SELECT COUNT(*) AS n FROM ${qt(schema, T.transfers)}`);
  expect(Number(tr.n) === committed, () => `${tr.n} transfer row(s) but ${committed} committed transaction(s)`);
  const [bad] = await admin.query(`SELECT COUNT(*) AS n FROM ${qt(schema, T.accounts)} a LEFT JOIN (
      SELECT id, SUM(d) AS d FROM (
        SELECT from_account AS id, -amount AS d FROM ${qt(schema, T.transfers)}
        UNION ALL SELECT to_account, amount FROM ${qt(schema, T.transfers)}) x GROUP BY id
    ) m ON m.id = a.id WHERE a.balance <> a.initial_balance + COALESCE(m.d, 0)`);
  expect(Number(bad.n) === 0, () => `${bad.n} account balance(s) differ from their seed plus their recorded transfers`);
}

/** p95 (and friends) of transaction latencies in microseconds. */
export function latencyP95(latencies) {
  const p95 = latencies?.percentile(95);
  return p95 === null || p95 === undefined ? null : Math.round(p95 * 10) / 10;
}
