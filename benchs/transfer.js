import {
  DEFAULT_ACCOUNTS, checkTransfer, identities, latencyP95, newStats, resetBalances, seed, transferOnce, verifyMoney,
} from '../lib/transfer.js';

// One operation = one payments transaction (8 statements between START TRANSACTION and COMMIT),
// `--concurrency` workers each on its own connection, on random accounts. ops/s = transactions/s.
// The workload's own counts (committed, retries, deadlocks) are kept per driver and level and put
// into the row by `summarize`; the money check runs after every cell (`verify`).

let state = null; // { accounts, id, byDriver: Map(name -> stats), cell: stats of the cell being measured }

const accountsOf = (ctx) => ctx?.options?.transferAccounts ?? DEFAULT_ACCOUNTS;

function stateFor(ctx) {
  const accounts = accountsOf(ctx);
  if (!state || state.accounts !== accounts) state = { accounts, id: identities(accounts), byDriver: new Map(), cell: newStats() };
  return state;
}

export default {
  name: 'transfer',
  title: 'a payments transaction: authenticate the requester, look up card and account, authenticate the approver, '
    + 'move an amount between two random accounts and record it, in START TRANSACTION … COMMIT (ops/s = transactions/s)',
  sql: 'START TRANSACTION; 3 SELECTs (requester, card + account, approver); UPDATE debit; UPDATE credit; INSERT transfer; COMMIT',
  statementsPerOp: 8,
  note: (ctx) => `${accountsOf(ctx).toLocaleString('en-US')} accounts; deadlocks and lock wait timeouts retried; `
    + 'after each cell: sum of balances unchanged, each balance = seed + its transfers, transfer rows = committed transactions',
  async setup(admin, ctx) {
    const s = stateFor(ctx);
    await seed(admin, ctx.schema, s.accounts);
    s.byDriver = new Map(); // a new level (or run): counts start again
  },
  async beforeCell(admin, ctx) {
    const s = stateFor(ctx);
    await resetBalances(admin, ctx.schema);
    s.cell = newStats();
  },
  plan(driver, ctx) {
    const s = stateFor(ctx);
    if (!s.byDriver.has(driver.name)) s.byDriver.set(driver.name, newStats());
    const perDriver = s.byDriver.get(driver.name);
    return {
      protocol: 'text, 8 statements',
      op: (conn) => () => transferOnce(conn, s.id, [perDriver, s.cell]),
    };
  },
  check: checkTransfer,
  verify: (admin, ctx) => verifyMoney(admin, ctx.schema, { accounts: stateFor(ctx).accounts, committed: stateFor(ctx).cell.committed }),
  /** Extra figures for the row (runner hook): the workload's counts and the p95 latency. */
  summarize({ driver, latencyUs }, ctx) {
    const s = stateFor(ctx);
    return { accounts: s.accounts, ...(s.byDriver.get(driver) ?? newStats()), p95: latencyP95(latencyUs) };
  },
};
