// The server's own counters of what a client did: which protocol path a row's operations took
// (test/integration/protocol.test.js for the drivers in-process, test/integration/runtimes.test.js for bun-sql on Bun).
import assert from 'node:assert/strict';

export const COUNTERS = ['Com_stmt_execute', 'Com_stmt_prepare', 'Com_insert', 'Questions'];

// A closing client's COM_QUIT counts as a question, and the server may process it after close()
// has resolved: wait for its thread to go, so it cannot land in the next interval.
export async function clientThreads(admin) {
  const [row] = await admin.query(
    "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND COMMAND <> 'Daemon'");
  return Number(row.n);
}

export async function waitForClientThreads(admin, count) {
  for (let i = 0; i < 500 && await clientThreads(admin) > count; i++) await new Promise((r) => setTimeout(r, 10));
}

export async function snapshot(admin) {
  const rows = await admin.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => '?').join(', ')})`, COUNTERS);
  return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
}

/**
 * What the server must have counted for `ops` operations on a protocol path; throws when it did not.
 * A label is a path from the vocabulary, optionally followed by ', detail' (e.g. 'text, streamed').
 */
export function assertCountersMatch(fullLabel, delta, ops, statementsPerOp) {
  const label = fullLabel.split(',')[0].trim();
  const statements = ops * statementsPerOp;
  const expect = {
    text: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Questions: statements },
    binary: { Com_stmt_execute: statements, Questions: statements },
    bulk: { Com_stmt_execute: ops, Com_insert: ops, Questions: ops }, // one execute per 100-row batch
    'text multi-row': { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: ops, Questions: ops },
    pipelined: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: statements, Questions: statements },
    queued: { Com_stmt_execute: 0, Com_stmt_prepare: 0, Com_insert: statements, Questions: statements },
  }[label];
  assert.ok(expect, `no server-side expectation for protocol label '${label}'`);
  for (const [name, value] of Object.entries(expect)) {
    assert.equal(delta[name], value, `${label}: expected ${name} to grow by ${value}, it grew by ${delta[name]}`);
  }
  if (label === 'binary' || label === 'bulk') {
    assert.ok(delta.Com_stmt_prepare <= 1, `${label}: statement prepared ${delta.Com_stmt_prepare} times (expected once at most)`);
  }
}
