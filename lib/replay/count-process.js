// One instruction-count process (--count instructions), run under Valgrind by count.js: a driver on
// one bench, its connection answered by a replay set in this process, `warmup` operations then `ops`
// more, every result checked. It prints one JSON line on stdout ({ ok, ops, protocol } or { ok: false,
// error }) and exits. Its parent runs it twice, differing only in `ops`, and takes the difference of
// the two instruction totals: start-up, loading, warm-up and exit cancel.
//   node count-process.js '<json: { spec, bench, set, context, target, warmup, ops }>'
import { replayConnections, takeMismatch } from './transport.js';
import { decodeConversation, readSet } from './sets.js';

const args = JSON.parse(process.argv[2]);
const say = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

async function main() {
  const set = readSet(args.set);
  // Before the driver loads: it may keep its own reference to node:net's connect.
  replayConnections(decodeConversation(set));
  const { loadDrivers } = await import('../drivers/index.js');
  const { BENCHES } = await import('../../benchs/index.js');
  const { checkFor, planFor, targetFor } = await import('../measuring/plan.js');
  const { withRowShape } = await import('../drivers/variants.js');
  const [driver] = await loadDrivers([args.spec], { checked: true });
  const bench = BENCHES.find((b) => b.name === args.bench);
  if (!bench) throw new Error(`unknown bench ${args.bench}`);
  const context = { ...args.context, ...(set.setupData === null ? {} : { setupData: set.setupData }) };
  const plan = planFor(bench, driver, context);
  if (plan.unsupported || plan.unavailable) throw new Error(plan.unsupported ?? plan.unavailable);
  const check = withRowShape(checkFor(plan, bench), driver);
  const conn = await driver.connect(targetFor(plan, args.target));
  await plan.init?.(conn);
  const op = plan.op(conn);
  for (let i = 0; i < args.warmup + args.ops; i++) check(await op());
  say({ ok: true, ops: args.ops, protocol: plan.protocol });
}

main().then(() => process.exit(0), (err) => {
  say({ ok: false, error: takeMismatch() ?? err?.message ?? String(err) });
  process.exit(1);
});
