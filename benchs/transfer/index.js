import { positiveInteger } from '../../lib/common/config.js';
import { windowCarry } from '../_tables.js';
import { renderTransfer } from './section.js';
import {
  DEFAULT_ACCOUNTS, checkTransfer, identities, latencyP95, newStats, resetBalances, seed, transferOnce, verifyMoney,
} from './workload.js';

// One operation = one payments transaction (8 statements between START TRANSACTION and COMMIT),
// `--concurrency` workers each on its own connection, on random accounts. ops/s = transactions/s.
// The workload's own counts (committed, retries, deadlocks) are kept in the driver's process: per
// window for the money check the harness runs after every window (`verify`), and in total for the
// row (`summarize`).

let state = null; // { accounts, id }: the seeded identities, as the application keeps them

// The accounts and transfers are kept across windows and put back to their seed only once this many
// transfers have been recorded since, as a reset before every window costs the harness's queries
// (docs/history/2026-11-24-limitations.md#figures-the-codes-comments-held). `verify` checks every transfer since the last reset.
const RESET_AFTER = 5000;
const carry = windowCarry(); // transfers committed (and verified) since the last reset

const accountsOf = (ctx) => ctx?.options?.transferAccounts ?? DEFAULT_ACCOUNTS;

function stateFor(ctx) {
  const accounts = accountsOf(ctx);
  if (!state || state.accounts !== accounts) state = { accounts, id: identities(accounts) };
  return state;
}

export default {
  name: 'transfer',
  notReplayable: 'its replies depend on the server\'s state (balances, locks, retries)',
  title: 'a payments transaction: authenticate the requester, look up card and account, authenticate the approver, '
    + 'move an amount between two random accounts and record it, in START TRANSACTION … COMMIT (ops/s = transactions/s)',
  sql: 'START TRANSACTION; 3 SELECTs (requester, card + account, approver); UPDATE debit; UPDATE credit; INSERT transfer; COMMIT',
  statementsPerOp: 8,
  openSchedule: true, // --rate: its workers can take transactions as they arrive
  note: (ctx) => `${accountsOf(ctx).toLocaleString('en-US')} accounts; deadlocks and lock wait timeouts retried; `
    + 'after each window: sum of balances unchanged, each balance = seed + its transfers, transfer rows = committed transactions',
  setup(admin, ctx) {
    carry.forget(ctx.schema);
    return seed(admin, ctx.schema, stateFor(ctx).accounts);
  },
  async beforeWindow(admin, { schema }) {
    let committed = carry.take(schema);
    if (committed === undefined || committed > RESET_AFTER) {
      await resetBalances(admin, schema);
      committed = 0;
    }
    carry.start(schema, committed);
  },
  plan(driver, ctx) {
    if (driver.extraOptions?.rowsAsArray) return { unsupported: 'rows as arrays (rowsAsArray): the workload reads its rows by column name' };
    const s = stateFor(ctx);
    const counters = [newStats(), newStats()]; // [this bench in total, the current window]
    return {
      protocol: 'text, 8 statements',
      op: (conn) => () => transferOnce(conn, s.id, counters),
      /** The window's counts so far; counting starts again. */
      windowStats() {
        const w = counters[1];
        counters[1] = newStats();
        return w;
      },
      summarize: (latencies) => ({ accounts: s.accounts, ...counters[0], p95: latencyP95(latencies) }),
    };
  },
  check: checkTransfer,
  // --transfer-accounts: the size of the seeded tables, in ctx.options and in the results' settings.
  options: [{
    flags: '--transfer-accounts <n>',
    description: `accounts (and users, cards, tokens) seeded for the transfer bench (default ${DEFAULT_ACCOUNTS})`,
    parse: positiveInteger('--transfer-accounts'),
    key: 'transferAccounts',
    default: DEFAULT_ACCOUNTS,
    record: true,
  }],
  section: renderTransfer,
  async verify(admin, ctx, windowStats) {
    const committed = (carry.started(ctx.schema) ?? 0) + (windowStats?.committed ?? 0);
    await verifyMoney(admin, ctx.schema, { accounts: stateFor(ctx).accounts, committed });
    carry.pass(ctx.schema, committed);
  },
};
