// A latency-injecting TCP proxy, run as its own process so it never takes the measured drivers'
// event loop. Every chunk read from either side is released to the other side no earlier than its
// arrival + `oneWayMs`, in arrival order; nothing is merged, reordered or dropped. Lateness is
// allowed, and measured: the proxy records each chunk's hold time (release − arrival) per direction.
//
// Waiting: a Node timer for the bulk of a long wait (it wakes ~1 ms late, or early), the alarm
// thread (alarm.js) until shortly before the release time (by its usual lateness plus
// SPIN_MARGIN_MS), then a spin on setImmediate (which still serves I/O) to the exact time. A chunk
// is released only when the clock says its time has come, whatever woke the loop, so it is never
// early. CPU cost on the 2-core VM, one connection in ping-pong: about 30 % of a core at 1 ms RTT,
// 20 % at 2 ms, 12 % at 6 ms (spinning through the whole wait took 85–93 %).
//
// argv: <listenHost> <targetHost|-> <targetPort|-> <targetSocket|-> <oneWayMs>
// stdout: one JSON line {"port": N} once listening; then, for each line {"command":"report"} on
// stdin, one line {"report": {toServer, toClient, cpuSeconds, uptimeSeconds}} (hold-time summaries
// per direction, see hold-stats.js). Exits when stdin closes (the harness that started it is gone)
// or on SIGTERM.
import { createServer, connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createHoldRecorder } from './hold-stats.js';

const [listenHost, targetHost, targetPort, targetSocket, oneWayArg] = process.argv.slice(2);
const oneWayMs = Number(oneWayArg);
const TIMER_LEAD_MS = 2.5; // a Node timer only for waits longer than this, set to end this much early
const SPIN_MARGIN_MS = 0.03; // the alarm wakes the loop this much before a release, on top of its usual lateness
// How late the alarm thread's wake-ups usually arrive: a running estimate of their 75th percentile
// (up 3 steps when a wake-up is later than it, down 1 when not), capped so that a busy host does not
// turn the wait into a long spin. It only moves CPU between sleeping and spinning: never-early does
// not depend on it.
const LATENESS_STEP_MS = 0.002;
const LATENESS_CAP_MS = 0.3;
let alarmLatenessMs = 0.1;
let alarmDue = 0;
const spinLeadMs = () => alarmLatenessMs + SPIN_MARGIN_MS;

const holds = { toServer: createHoldRecorder(oneWayMs), toClient: createHoldRecorder(oneWayMs) };
const queue = []; // { due, arrived, socket, chunk | end, direction } in arrival order; one delay for all, so due ascends
let head = 0; // index of the next item to release (the array is compacted now and then)
let waiting = null; // 'timer' | 'alarm' | 'spin' while a wake-up is pending

const alarm = new Worker(new URL('./alarm.js', import.meta.url));
alarm.unref();
alarm.on('message', () => {
  const late = performance.now() - alarmDue;
  alarmLatenessMs = Math.min(LATENESS_CAP_MS, Math.max(0, alarmLatenessMs + (late > alarmLatenessMs ? 3 : -1) * LATENESS_STEP_MS));
  waiting = null;
  releaseDue();
});
alarm.on('error', (err) => { process.stderr.write(`latency proxy: alarm thread failed: ${err.message}\n`); process.exit(1); });

/** Whether an item has been held its full delay: the very expression its recorded hold is. */
const heldLongEnough = (item, now) => now - item.arrived >= oneWayMs;

function release({ socket, chunk, end, arrived, direction }, now) {
  if (end) {
    socket.end();
    return;
  }
  holds[direction].add(now - arrived);
  if (!socket.destroyed) socket.write(chunk);
}

function releaseDue() {
  for (let now = performance.now(); head < queue.length && heldLongEnough(queue[head], now); now = performance.now()) {
    release(queue[head++], now);
  }
  if (head > 1024 && head * 2 > queue.length) { // drop released items now and then, not one by one
    queue.splice(0, head);
    head = 0;
  }
  arm();
}

/** Arrange to be woken for the next chunk's release time, by the cheapest means precise enough. */
function arm() {
  if (waiting || head >= queue.length) return;
  const wait = queue[head].due - performance.now();
  if (wait > TIMER_LEAD_MS) {
    waiting = 'timer';
    setTimeout(() => { waiting = null; releaseDue(); }, Math.floor(wait - TIMER_LEAD_MS));
  } else if (wait > spinLeadMs()) {
    waiting = 'alarm';
    alarmDue = queue[head].due - spinLeadMs();
    alarm.postMessage(wait - spinLeadMs());
  } else {
    waiting = 'spin';
    setImmediate(() => { waiting = null; releaseDue(); });
  }
}

function relay(from, to, direction) {
  from.on('data', (chunk) => {
    const arrived = performance.now();
    queue.push({ due: arrived + oneWayMs, arrived, socket: to, chunk, direction });
    arm();
  });
  from.on('end', () => {
    const arrived = performance.now();
    queue.push({ due: arrived + oneWayMs, arrived, socket: to, end: true, direction });
    arm();
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
  relay(client, upstream, 'toServer');
  relay(upstream, client, 'toClient');
});

function report() {
  const cpu = process.cpuUsage(); // all threads: the event loop and the alarm thread
  return {
    toServer: holds.toServer.summary(),
    toClient: holds.toClient.summary(),
    cpuSeconds: Math.round((cpu.user + cpu.system) / 1000) / 1000,
    uptimeSeconds: Math.round(performance.now()) / 1000,
  };
}

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
    let msg;
    try { msg = JSON.parse(line); } catch { continue; /* ignore malformed lines */ }
    if (msg.command === 'report') process.stdout.write(`${JSON.stringify({ report: report() })}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
