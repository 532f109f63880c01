// --replay's capture, in a driver process: one connection to the server, recorded from its handshake
// through a number of operations, each checked.
import { deadline } from '../../common/timers.js';
import { targetFor } from '../bench/plan.js';
import { connectDirectly, recordConnections } from '../../conversations/transport.js';

/** Run `ops` operations of `plan` on one connection of `driver` to `target`, recorded; returns { protocol, recording }. */
export async function capture({ driver, target, plan, check, ops, callTimeoutMs, closeAll }) {
  const recorders = recordConnections();
  let conn = null;
  try {
    conn = await driver.connect(targetFor(plan, target));
    await plan.init?.(conn);
    const op = plan.op(conn);
    // Only operations whose result passed its check are kept: a failed check fails the capture.
    for (let i = 0; i < ops; i++) {
      recorders[0].markOp();
      const result = await deadline(op(), callTimeoutMs, () => new Error(`no reply within ${callTimeoutMs / 1000} s while capturing`));
      check(result);
    }
    if (recorders.length !== 1) throw new Error(`the bench opened ${recorders.length} connections; a replay set records one`);
    return { protocol: plan.protocol, recording: recorders[0].finish() };
  } finally {
    connectDirectly();
    if (conn) await closeAll([conn]);
  }
}
