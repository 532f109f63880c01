// --replay inside a driver process: node:net's connect functions, wrapped before the driver loads, send
// its connections to the server (recorded or untouched) or to an in-process socket that checks each
// command against a recording and pushes the recorded reply on the next turn: no kernel, no server.
import net from 'node:net';
import { Duplex } from 'node:stream';
import { ConversationPlayer, ConversationRecorder } from './conversation.js';

let mode = null; // null | { record: ConversationRecorder[] } | { play: recording }
let lastMismatch = null;
// What the driver wrote to its replayed sockets and what they delivered to it, since the process
// started: a count's window meter (replay/window-meter.js) takes the difference around each window.
const traffic = { writes: 0, bytesSent: 0, bytesReceived: 0 };

export const replayTraffic = () => ({ ...traffic });

/** A connected socket that a recorded server answers. */
class ReplaySocket extends Duplex {
  constructor(recording) {
    super({ allowHalfOpen: false });
    this.player = new ConversationPlayer(recording);
    this.connecting = true;
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 3306;
    this.outbox = [];
    this.flushing = false;
    setImmediate(() => {
      this.connecting = false;
      this.emit('connect');
      this.emit('ready');
      this.deliver([this.player.handshake()]);
    });
  }

  deliver(replies) {
    for (const r of replies) this.outbox.push(r);
    if (this.flushing || (this.outbox.length === 0 && !this.player.quit)) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const out = this.outbox;
      this.outbox = [];
      for (const r of out) {
        if (this.destroyed) continue;
        traffic.bytesReceived += r.length;
        this.push(r);
      }
      if (this.player.quit && !this.destroyed) this.push(null);
    });
  }

  _write(chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    traffic.writes++;
    traffic.bytesSent += bytes.length;
    let replies;
    try {
      replies = this.player.clientBytes(bytes);
    } catch (err) {
      lastMismatch = err.message;
      callback();
      this.destroy(err);
      return;
    }
    callback();
    this.deliver(replies);
  }

  _read() {}

  _final(callback) {
    callback();
    setImmediate(() => { if (!this.destroyed) this.push(null); });
  }

  setNoDelay() { return this; }
  setKeepAlive() { return this; }
  setTimeout(ms, callback) {
    if (callback && ms > 0) this.once('timeout', callback);
    return this;
  }
  ref() { return this; }
  unref() { return this; }
  address() { return { address: '127.0.0.1', family: 'IPv4', port: 0 }; }
}

/** Both directions of a real socket into a recorder. */
function record(socket) {
  const recorder = new ConversationRecorder();
  const write = socket.write;
  socket.write = function recordedWrite(chunk, encoding, callback) {
    recorder.clientBytes(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk);
    return write.call(this, chunk, encoding, callback);
  };
  socket.prependListener('data', (chunk) => recorder.serverBytes(chunk));
  return recorder;
}

let installed = false;
/** Wrap node:net's connect functions (before the driver loads: a driver may keep its own reference). */
export function installReplayTransport() {
  if (installed) return;
  installed = true;
  const connect = net.connect;
  const wrapped = function replayableConnect(...args) {
    if (mode?.play) {
      const socket = new ReplaySocket(mode.play);
      const listener = args.find((a) => typeof a === 'function');
      if (listener) socket.once('connect', listener);
      return socket;
    }
    const socket = connect.apply(net, args);
    if (mode?.record) mode.record.push(record(socket));
    return socket;
  };
  net.connect = wrapped;
  net.createConnection = wrapped;
}

/** Connections from now on go to the server and are recorded: returns their recorders, in order. */
export function recordConnections() {
  installReplayTransport();
  mode = { record: [] };
  return mode.record;
}

/** Connections from now on are answered by `recording` (a ConversationRecorder's finish(), or one loaded from a set). */
export function replayConnections(recording) {
  installReplayTransport();
  mode = { play: recording };
}

export function connectDirectly() {
  mode = null;
}

/** The last command mismatch (a row's error says which command the recording did not expect); cleared. */
export function takeMismatch() {
  const m = lastMismatch;
  lastMismatch = null;
  return m;
}
