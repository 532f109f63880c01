// A latency-injecting TCP proxy, run as its own process so it never takes the measured drivers'
// event loop. Each direction's bytes are held for `oneWayMs` and then written in arrival order;
// nothing is merged, reordered or dropped.
//
// Sub-millisecond delays are beyond setTimeout (1 ms granularity), so the wait is a timer for
// the bulk of it and a short spin (setImmediate, which still serves I/O) for the last stretch.
//
// argv: <listenHost> <targetHost|-> <targetPort|-> <targetSocket|-> <oneWayMs>
// Prints one JSON line on stdout: {"port": N} once listening. A JSON line {"oneWayMs": x} on stdin
// changes the delay (for data arriving from then on). Exits when stdin closes (the harness that
// started it is gone) or on SIGTERM.
import { createServer, connect } from 'node:net';
import { performance } from 'node:perf_hooks';

const [listenHost, targetHost, targetPort, targetSocket, oneWayArg] = process.argv.slice(2);
let oneWayMs = Number(oneWayArg);
const SPIN_MS = 1.5; // below this, spin instead of sleeping on a timer

const queue = []; // { due, socket, chunk } in arrival order; all share one delay, so due times ascend
let timer = null;
let spinning = false;

function flush() {
  const now = performance.now();
  while (queue.length && queue[0].due <= now) {
    const { socket, chunk, end } = queue.shift();
    if (end) socket.end();
    else if (!socket.destroyed) socket.write(chunk);
  }
  schedule();
}

function spin() {
  spinning = false;
  flush();
}

function schedule() {
  if (!queue.length || spinning) return;
  const wait = queue[0].due - performance.now();
  if (wait > SPIN_MS) {
    if (!timer) timer = setTimeout(() => { timer = null; schedule(); }, wait - SPIN_MS);
  } else {
    spinning = true;
    setImmediate(spin);
  }
}

function relay(from, to) {
  from.on('data', (chunk) => {
    queue.push({ due: performance.now() + oneWayMs, socket: to, chunk });
    schedule();
  });
  from.on('end', () => {
    queue.push({ due: performance.now() + oneWayMs, socket: to, end: true });
    schedule();
  });
}

const server = createServer({ noDelay: true }, (client) => {
  const upstream = targetSocket !== '-' ? connect(targetSocket) : connect({ host: targetHost, port: Number(targetPort), noDelay: true });
  client.setNoDelay(true);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close);
  upstream.on('error', close);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  relay(client, upstream);
  relay(upstream, client);
});

server.listen(0, listenHost, () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
let input = '';
process.stdin.on('data', (d) => {
  input += d;
  let nl;
  while ((nl = input.indexOf('\n')) >= 0) {
    const line = input.slice(0, nl);
    input = input.slice(nl + 1);
    try {
      const msg = JSON.parse(line);
      if (Number.isFinite(msg.oneWayMs) && msg.oneWayMs >= 0) oneWayMs = msg.oneWayMs;
    } catch { /* ignore malformed lines */ }
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
