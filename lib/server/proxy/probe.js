// The --rtt probe, in its own process placed where the drivers run: the floor client times `DO 1`
// straight to the server and with the round trip added (the proxy, or drivers/held-sockets.js), in
// interleaved blocks. JSON lines with calibrate.js; targets, passwords included, come on stdin, never argv.
import { performance } from 'node:perf_hooks';
import { connectFloor } from '../../drivers/floor-client.js';
import { holdSockets, setHold } from '../../drivers/held-sockets.js';
import { eachLine } from './lines.js';

const SKIP = 2; // operations at the start of each block, not kept: the first after a switch of connection

async function timeBlock(conn, count, into) {
  for (let i = 0; i < count + SKIP; i++) {
    const t0 = performance.now();
    await conn.query('DO 1');
    if (i >= SKIP) into.push(Math.round((performance.now() - t0) * 1000 * 10) / 10);
  }
}

async function measure(conns, { blocks, perBlock }) {
  const directUs = [];
  const proxiedUs = [];
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 ? [[conns.proxied, proxiedUs], [conns.direct, directUs]] : [[conns.direct, directUs], [conns.proxied, proxiedUs]];
    for (const [conn, into] of order) await timeBlock(conn, perBlock, into);
  }
  return { directUs, proxiedUs };
}

let conns = null;
let queue = Promise.resolve();
const answer = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

async function handle(msg) {
  try {
    if (!conns) {
      const direct = await connectFloor(msg.direct);
      if (msg.heldOneWayMs !== undefined) holdSockets({ oneWayMs: msg.heldOneWayMs });
      const proxied = await connectFloor(msg.proxied ?? msg.direct);
      holdSockets({ oneWayMs: msg.heldOneWayMs ?? 0, on: false });
      conns = { direct, proxied };
      await timeBlock(conns.direct, 3000, []); // warm-up, not kept: until the floor client's code is compiled
      await timeBlock(conns.proxied, 200, []);
      answer({ ready: true });
    } else if (msg.hold !== undefined) {
      setHold(msg.hold);
      answer({ hold: msg.hold });
    } else {
      answer(await measure(conns, msg));
    }
  } catch (err) {
    answer({ error: err.message });
  }
}

eachLine(process.stdin, (line) => { queue = queue.then(() => handle(JSON.parse(line))); });
const quit = () => {
  for (const c of Object.values(conns ?? {})) { try { c.close(); } catch { /* gone */ } }
  process.exit(0);
};
process.stdin.on('end', () => { queue.then(quit); });
process.stdin.on('error', quit);
process.on('SIGTERM', quit);
