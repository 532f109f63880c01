// A latency-injecting TCP proxy in its own process (index.js starts it and speaks its stdin/stdout): each
// chunk leaves no earlier than its arrival plus the hold in force then, in arrival order, never merged or
// dropped, its hold recorded per direction. The harness tunes the hold from the client's side (calibrate.js).
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
// The alarm's usual lateness, a running 75th percentile (up 3 steps, down 1), capped so a busy host does
// not turn waits into long spins. It only trades sleeping for spinning: never-early does not depend on it.
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

// The cheapest wake-up precise enough. spin (a CPU of its own): the loop turns through holds and LINGER_MS
// after, so no idle CPU wakes. sleep: a timer (~1 ms off), the alarm thread, then setImmediate.
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
