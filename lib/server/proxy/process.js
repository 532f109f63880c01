// A latency-injecting TCP proxy, run as its own process so it never takes the measured drivers'
// event loop. Every chunk read from either side is released to the other side no earlier than its
// arrival + the hold in force when it arrived, in arrival order; nothing is merged, reordered or
// dropped. Lateness is allowed, and measured: the proxy records each chunk's hold time (release −
// arrival) per direction, and counts a chunk released before its hold as `early` (never expected).
//
// The hold starts at the asked one-way delay; the harness may set it lower ({"command":"hold"}) by
// the proxy's own path cost, measured from the client's side (calibrate.js), so that the client sees
// the asked round trip rather than the asked round trip plus the proxy's forwarding and wake-ups.
//
// Waiting, two ways (argv `waits`):
//   spin   when the proxy has a CPU of its own: while chunks are held, and for LINGER_MS after the
//          last one, the event loop turns without sleeping (setImmediate: each turn still polls the
//          sockets), so an arriving chunk is read at once and a held one leaves on time, with no
//          wake-up of an idle CPU in between. Waits longer than SPIN_WITHIN_MS sleep on a timer first.
//   sleep  when it shares a CPU with the client or the server: a Node timer for the bulk of a long
//          wait (it wakes ~1 ms late, or early), the alarm thread (alarm.js) until shortly before the
//          release time, then a spin on setImmediate to the exact time.
// Either way a chunk is released only when the clock says its time has come, whatever woke the
// loop, so it is never early.
//
// argv: <listenHost> <targetHost|-> <targetPort|-> <targetSocket|-> <oneWayMs> [spin|sleep]
// stdout: one JSON line {"port": N} once listening; then one line per command line on stdin:
//   {"command":"report"}             -> {"report": {toServer, toClient, holdMs, waits, cpuSeconds, uptimeSeconds}}
//   {"command":"hold","oneWayMs":x}  -> {"hold": x}  hold chunks arriving from now on x ms, and start a new record
// Exits when stdin closes (the harness that started it is gone) or on SIGTERM.
import { createServer, connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createHoldRecorder } from './hold-stats.js';
import { eachLine } from './lines.js';

const [listenHost, targetHost, targetPort, targetSocket, oneWayArg, waitsArg] = process.argv.slice(2);
const waits = waitsArg === 'spin' ? 'spin' : 'sleep';
let holdMs = Number(oneWayArg);
const TIMER_LEAD_MS = 2.5; // a Node timer only for waits longer than this, set to end this much early
const SPIN_WITHIN_MS = 5; // spin mode: spin through waits up to this long (timer first beyond)
const LINGER_MS = 3; // spin mode: keep spinning this long after the last chunk came or went
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

const newRecord = () => ({ toServer: createHoldRecorder(holdMs), toClient: createHoldRecorder(holdMs) });
let holds = newRecord();
const queue = []; // { due, arrived, hold, socket, chunk | end, direction } in arrival order
let head = 0; // index of the next item to release (the array is compacted now and then)
let waiting = null; // 'timer' | 'alarm' | 'spin' while a wake-up is pending
let lastActivity = 0; // performance.now() of the last arrival or release (spin mode's linger)

let alarm = null;
if (waits === 'sleep') {
  alarm = new Worker(new URL('./alarm.js', import.meta.url));
  alarm.unref();
  alarm.on('message', () => {
    const late = performance.now() - alarmDue;
    alarmLatenessMs = Math.min(LATENESS_CAP_MS, Math.max(0, alarmLatenessMs + (late > alarmLatenessMs ? 3 : -1) * LATENESS_STEP_MS));
    waiting = null;
    releaseDue();
  });
  alarm.on('error', (err) => { process.stderr.write(`latency proxy: alarm thread failed: ${err.message}\n`); process.exit(1); });
}

/** Whether an item has been held its full delay: the very expression its recorded hold is. */
const heldLongEnough = (item, now) => now - item.arrived >= item.hold;

function release({ socket, chunk, end, arrived, direction, record }, now) {
  if (end) {
    socket.end();
    return;
  }
  record[direction].add(now - arrived);
  if (!socket.destroyed) socket.write(chunk);
}

function releaseDue() {
  let now = performance.now();
  for (; head < queue.length && heldLongEnough(queue[head], now); now = performance.now()) {
    release(queue[head++], now);
    lastActivity = now;
  }
  if (head > 1024 && head * 2 > queue.length) { // drop released items now and then, not one by one
    queue.splice(0, head);
    head = 0;
  }
  arm(now);
}

const turn = () => { waiting = null; releaseDue(); };

/** Arrange to be woken for the next chunk's release time, by the cheapest means precise enough. */
function arm(now = performance.now()) {
  if (waiting) return;
  if (head >= queue.length) {
    if (waits === 'spin' && now - lastActivity < LINGER_MS) { waiting = 'spin'; setImmediate(turn); }
    return;
  }
  const wait = queue[head].due - now;
  if (waits === 'spin') {
    if (wait > SPIN_WITHIN_MS) {
      waiting = 'timer';
      setTimeout(turn, Math.floor(wait - TIMER_LEAD_MS));
    } else {
      waiting = 'spin';
      setImmediate(turn);
    }
  } else if (wait > TIMER_LEAD_MS) {
    waiting = 'timer';
    setTimeout(turn, Math.floor(wait - TIMER_LEAD_MS));
  } else if (wait > spinLeadMs()) {
    waiting = 'alarm';
    alarmDue = queue[head].due - spinLeadMs();
    alarm.postMessage(wait - spinLeadMs());
  } else {
    waiting = 'spin';
    setImmediate(turn);
  }
}

function hold(item) {
  const arrived = performance.now();
  lastActivity = arrived;
  queue.push({ ...item, arrived, hold: holdMs, due: arrived + holdMs, record: holds });
  // An item that arrives already due (a zero hold) goes out in this turn, after the ones before it.
  if (holdMs <= 0) releaseDue();
  else arm(arrived);
}

function relay(from, to, direction) {
  from.on('data', (chunk) => hold({ socket: to, chunk, direction }));
  from.on('end', () => hold({ socket: to, end: true, direction }));
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
    holdMs,
    waits,
    cpuSeconds: Math.round((cpu.user + cpu.system) / 1000) / 1000,
    uptimeSeconds: Math.round(performance.now()) / 1000,
  };
}

function command(msg) {
  if (msg.command === 'report') return { report: report() };
  if (msg.command === 'hold' && Number.isFinite(msg.oneWayMs) && msg.oneWayMs >= 0) {
    holdMs = msg.oneWayMs;
    holds = newRecord(); // chunks still held keep the hold and the record they arrived under
    return { hold: holdMs };
  }
  return { error: `unknown command ${JSON.stringify(msg)}` };
}

server.listen(0, listenHost, () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
eachLine(process.stdin, (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; /* ignore malformed lines */ }
  process.stdout.write(`${JSON.stringify(command(msg))}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
