// --rtt in the driver process: each chunk a socket connected while holding writes or receives goes on
// `oneWayMs` later, in order, through one queue per process; the driver runs unmodified. Why here, the
// busy turns and the spin, and why TLS is refused: docs/network.md (`--rtt-via process`).
import net from 'node:net';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import { spinFor } from '../common/timers.js';

const queue = []; // { due, run } in arrival order; one hold for all, so due ascends
let head = 0;
let turning = false;
// A turn spins toward the next chunk's time for at most this long before it polls the sockets again:
// a chunk arriving meanwhile on another connection is seen up to this late.
const SLICE_MS = 0.025;
// After a held write goes out, the loop keeps turning this long, or until the reply's chunk is held.
const AWAIT_REPLY_MS = 2;
let awaitUntil = 0;
let holdMs = 0;
let holding = false;
const lateness = { count: 0, early: 0, maxMs: 0, sumMs: 0 };
// Round trips while holding: a write on a held socket after it last received (or its first write)
// starts one; the writes that follow before its next reply belong to the same one (a pipeline).
let roundTrips = 0;

function turn() {
  let now = performance.now();
  if (head < queue.length && queue[head].due > now) {
    spinFor(Math.min(queue[head].due - now, SLICE_MS));
    now = performance.now();
  }
  while (head < queue.length && queue[head].due <= now) {
    const item = queue[head++];
    const late = now - item.due;
    lateness.count++;
    lateness.sumMs += late;
    if (late > lateness.maxMs) lateness.maxMs = late;
    item.run();
  }
  if (head > 1024 && head * 2 > queue.length) {
    queue.splice(0, head);
    head = 0;
  }
  if (head < queue.length || now < awaitUntil) setImmediate(turn);
  else turning = false;
}

function later(run) {
  queue.push({ due: performance.now() + holdMs, run });
  if (!turning) {
    turning = true;
    setImmediate(turn);
  }
}

function hold(socket) {
  socket.heldOneWay = true;
  // Set after connect(): connect() puts back the prototype's write on a socket that had ended.
  const write = socket.write;
  const end = socket.end;
  const emit = socket.emit;
  socket.write = function heldWrite(chunk, encoding, callback) {
    if (holdMs <= 0) return write.call(this, chunk, encoding, callback);
    if (!this.heldWriting) roundTrips++;
    this.heldWriting = true;
    later(() => {
      awaitUntil = performance.now() + AWAIT_REPLY_MS;
      return write.call(this, chunk, encoding, callback);
    });
    return true;
  };
  // end() writes its last chunk and the FIN without going through write(): held too, after the writes before it.
  socket.end = function heldEnd(...args) {
    if (holdMs <= 0) return end.apply(this, args);
    later(() => end.apply(this, args));
    return this;
  };
  socket.emit = function heldEmit(event, ...args) {
    // 'end' must not overtake the data held before it.
    if (event === 'data') this.heldWriting = false;
    if (holdMs > 0 && (event === 'data' || (event === 'end' && head < queue.length))) {
      later(() => emit.call(this, event, ...args));
      return true;
    }
    return emit.call(this, event, ...args);
  };
}

let installed = false;
function install() {
  if (installed) return;
  installed = true;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function heldConnect(...args) {
    const result = connect.apply(this, args);
    if (holding && !this.heldOneWay && !(this instanceof tls.TLSSocket)) hold(this);
    return result;
  };
  const tlsConnect = tls.connect;
  tls.connect = function heldTlsConnect(...args) {
    const options = args.find((a) => a && typeof a === 'object');
    if (options?.socket?.heldOneWay && holdMs > 0) {
      throw new Error('--rtt in the driver process does not reach TLS bytes: measure TLS with --rtt-via proxy');
    }
    return tlsConnect.apply(this, args);
  };
}

/** Hold every socket connected from now on, `oneWayMs` each way (`on` false: new ones are not; held ones stay held). */
export function holdSockets({ oneWayMs, on = true }) {
  install();
  holdMs = oneWayMs;
  holding = on;
}

/** Set the hold each way of the held sockets, for chunks arriving from now on; returns the previous one. */
export function setHold(oneWayMs) {
  const previous = holdMs;
  holdMs = oneWayMs;
  return previous;
}

/** How late the held chunks went on, since the last call: { chunks, early, meanUs, maxMs }; early is always 0. */
export function takeLateness() {
  const out = {
    chunks: lateness.count,
    early: lateness.early,
    meanUs: lateness.count ? Math.round((lateness.sumMs / lateness.count) * 10000) / 10 : null,
    maxMs: Math.round(lateness.maxMs * 1000) / 1000,
  };
  Object.assign(lateness, { count: 0, early: 0, maxMs: 0, sumMs: 0 });
  return out;
}

/** Round trips started on held sockets while the hold was on, since the last call. */
export function takeRoundTrips() {
  const n = roundTrips;
  roundTrips = 0;
  return n;
}
