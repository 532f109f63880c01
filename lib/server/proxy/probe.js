// The --rtt probe, run as its own process placed where the drivers run: one connection straight to
// the server and one with the round trip added (through the proxy, or held in this process as the
// driver processes hold theirs, drivers/held-sockets.js), both with the harness's minimal client (the
// floor client), timing `DO 1` on each in interleaved blocks. What the added round trip is as the
// client sees it is the difference of the two medians (calibrate.js).
//
// stdin: one JSON line { direct, proxied } or { direct, heldOneWayMs } (connection targets, password
// included: never on argv), then one line per measurement { blocks, perBlock } or per change of the
// held time { hold: ms }; stdout: one JSON line per measurement { directUs: [...], proxiedUs: [...] }
// (each operation's time in µs, unsorted), { hold } or { error }. Exits when stdin closes.
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
