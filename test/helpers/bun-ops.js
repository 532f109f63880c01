// Run on Bun by test/integration/runtimes.test.js: bun-sql on one bench, its operations run when the parent
// says, so the parent can read the server's counters around them. Messages (JSON over IPC):
//   parent → { bench, target, context }      open (pool or connection), then → { ready, protocol } or { na }
//   parent → { go: ops }                     run `ops` operations, each checked, then → { done }
//   parent → { close: true }                 close, then exit
import adapter from '../../lib/drivers/bun-sql.js';
import { BENCHES } from '../../benchs/index.js';
import { checkFor, notApplicableReason, planFor, targetFor } from '../../lib/measuring/bench/plan.js';

// `node --test test/` runs every file under test/, this one too: without a parent it has nothing to do.
if (!process.send) process.exit(0);

let conn = null;
let op = null;
let check = null;
process.on('message', async (m) => {
  try {
    if (m.bench) {
      const bench = BENCHES.find((b) => b.name === m.bench);
      const plan = planFor(bench, adapter, m.context);
      const na = notApplicableReason(plan);
      if (na) return process.send({ na });
      conn = plan.pool ? await adapter.createPool(targetFor(plan, m.target), 2) : await adapter.connect(targetFor(plan, m.target));
      await plan.init?.(conn);
      op = plan.op(conn);
      check = checkFor(plan, bench);
      return process.send({ ready: true, protocol: plan.protocol });
    }
    if (m.go) {
      for (let i = 0; i < m.go; i++) check(await op());
      return process.send({ done: true });
    }
    if (m.close) {
      await conn?.close();
      process.exit(0);
    }
  } catch (err) {
    process.send({ error: err.message });
  }
});
process.send({ started: true });
