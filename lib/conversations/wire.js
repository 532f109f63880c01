// The MySQL/MariaDB wire format as far as replay needs it: packets (3-byte length, 1-byte sequence),
// the capabilities a connection agreed on, the shape of a client command, and where the server's
// reply to a command ends. Pure functions; no socket here.

export const CLIENT_MYSQL = 1;
export const CLIENT_DEPRECATE_EOF = 1 << 24;
const MARIADB_CACHE_METADATA = 1 << 4; // in MariaDB's extended capabilities
const SERVER_MORE_RESULTS_EXISTS = 0x0008;

export const COM = Object.freeze({
  QUIT: 0x01, INIT_DB: 0x02, QUERY: 0x03, PING: 0x0e, STMT_PREPARE: 0x16, STMT_EXECUTE: 0x17,
  STMT_SEND_LONG_DATA: 0x18, STMT_CLOSE: 0x19, STMT_RESET: 0x1a, SET_OPTION: 0x1b, STMT_FETCH: 0x1c,
  RESET_CONNECTION: 0x1f, STMT_BULK_EXECUTE: 0xfa,
});
const COM_NAMES = Object.fromEntries(Object.entries(COM).map(([k, v]) => [v, `COM_${k}`]));

const UNANSWERED = new Set([COM.QUIT, COM.STMT_SEND_LONG_DATA, COM.STMT_CLOSE]);
/** Commands whose first 4 bytes after the command byte are a statement id. */
const WITH_STATEMENT = new Set([COM.STMT_EXECUTE, COM.STMT_SEND_LONG_DATA, COM.STMT_CLOSE, COM.STMT_RESET, COM.STMT_FETCH, COM.STMT_BULK_EXECUTE]);

/** A readable name for a command byte: COM_QUERY, or 0x42. */
export const commandName = (cmd) => COM_NAMES[cmd] ?? `0x${cmd.toString(16).padStart(2, '0')}`;

export const answered = (cmd) => !UNANSWERED.has(cmd);

/** push(chunk) returns the whole packets it completed, payloads viewing the stream's bytes; a partial one waits. */
export class PacketReader {
  constructor() {
    this.rest = null;
  }

  push(chunk) {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const packets = [];
    let at = 0;
    while (buf.length - at >= 4) {
      const length = buf.readUIntLE(at, 3);
      if (buf.length - at < 4 + length) break;
      packets.push({ seq: buf[at + 3], payload: buf.subarray(at + 4, at + 4 + length), bytes: buf.subarray(at, at + 4 + length) });
      at += 4 + length;
    }
    this.rest = at < buf.length ? Buffer.from(buf.subarray(at)) : null;
    return packets;
  }

  get pending() {
    return this.rest ? this.rest.length : 0;
  }
}

/** A command packet's shape: { cmd, stmt } (stmt: the statement id where the command has one, else null). */
export function commandShape(payload) {
  const cmd = payload[0];
  const stmt = WITH_STATEMENT.has(cmd) && payload.length >= 5 ? payload.readUInt32LE(1) : null;
  return { cmd, stmt };
}

/** The server's capabilities and version from its greeting (protocol 10); null for anything else. */
export function readGreeting(payload) {
  if (payload[0] !== 10) return null;
  const versionEnd = payload.indexOf(0, 1);
  if (versionEnd < 0) return null;
  const version = payload.toString('latin1', 1, versionEnd);
  let at = versionEnd + 1 + 4 + 8 + 1; // connection id, scramble part 1, filler
  if (payload.length < at + 2) return null;
  const lower = payload.readUInt16LE(at);
  at += 2 + 1 + 2; // charset, status
  const upper = payload.length >= at + 2 ? payload.readUInt16LE(at) : 0;
  const caps = (lower | (upper << 16)) >>> 0;
  at += 2 + 1 + 6; // auth data length, filler
  const extended = !(caps & CLIENT_MYSQL) && payload.length >= at + 4 ? payload.readUInt32LE(at) : 0;
  return { version, caps, extended };
}

/**
 * A greeting packet with what differs per connection made the same (connection id 1, the scramble's
 * bytes 'A', lengths and part 2's NUL kept), so a set is the same bytes on every capture (a replay
 * checks no password). Anything not a protocol-10 greeting is returned as it is.
 */
export function canonicalGreeting(packet) {
  const out = Buffer.from(packet);
  const payload = out.subarray(4);
  if (payload[0] !== 10) return out;
  const versionEnd = payload.indexOf(0, 1);
  if (versionEnd < 0 || payload.length < versionEnd + 1 + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10) return out;
  let at = versionEnd + 1;
  payload.writeUInt32LE(1, at);
  payload.fill(0x41, at + 4, at + 12);
  at += 4 + 8 + 1 + 2 + 1 + 2 + 2; // connection id, scramble part 1, filler, capabilities, charset, status, capabilities
  const authLength = payload[at];
  at += 1 + 10; // auth data length, reserved (MariaDB: 6 and its extended capabilities)
  const part2 = Math.max(13, authLength - 8);
  const end = Math.min(payload.length, at + part2);
  const terminated = end > at && payload[end - 1] === 0 ? end - 1 : end;
  payload.fill(0x41, at, terminated);
  return out;
}

/** The client's capabilities from its handshake response (the first packet it sends). */
export function readHandshakeResponse(payload) {
  if (payload.length < 32) return null;
  const caps = payload.readUInt32LE(0);
  const extended = caps & CLIENT_MYSQL ? 0 : payload.readUInt32LE(28);
  return { caps, extended };
}

/** What both sides agreed on: { deprecateEof, cacheMetadata }. */
export function agreed(server, client) {
  const caps = (server?.caps ?? 0) & (client?.caps ?? 0);
  const extended = (server?.extended ?? 0) & (client?.extended ?? 0);
  return { deprecateEof: Boolean(caps & CLIENT_DEPRECATE_EOF), cacheMetadata: Boolean(extended & MARIADB_CACHE_METADATA) };
}

/** A length-encoded integer at `at`: [value, next offset]. */
function lenenc(buf, at) {
  const first = buf[at];
  if (first < 0xfb) return [first, at + 1];
  if (first === 0xfc) return [buf.readUInt16LE(at + 1), at + 3];
  if (first === 0xfd) return [buf.readUIntLE(at + 1, 3), at + 4];
  return [Number(buf.readBigUInt64LE(at + 1)), at + 9];
}

/** Status flags of an OK packet (0x00 or 0xFE header) or of an EOF packet. */
function statusOf(payload) {
  if (payload[0] === 0xfe && payload.length < 9) return payload.length >= 5 ? payload.readUInt16LE(3) : 0;
  let [, at] = lenenc(payload, 1);
  [, at] = lenenc(payload, at);
  return at + 2 <= payload.length ? payload.readUInt16LE(at) : 0;
}

const isEndOfRows = (p, { deprecateEof }) => p[0] === 0xfe && (deprecateEof ? p.length < 0xffffff : p.length < 9);

/**
 * Follows the server's reply to one command, packet by packet: feed(payload) returns true once the
 * reply is complete. Knows OK, ERR, result sets (text and binary, several with
 * SERVER_MORE_RESULTS_EXISTS, MariaDB's cached metadata) and the prepare reply.
 */
export class ReplyTracker {
  constructor(cmd, agreement) {
    this.cmd = cmd;
    this.agreement = agreement;
    this.state = cmd === COM.STMT_PREPARE ? 'prepare' : 'first';
    this.left = 0;
    this.then = null;
  }

  feed(p) {
    const { deprecateEof, cacheMetadata } = this.agreement;
    switch (this.state) {
      case 'prepare': {
        if (p[0] !== 0x00) return true; // ERR
        const columns = p.readUInt16LE(5);
        const params = p.readUInt16LE(7);
        this.pending = [params, columns].filter((n) => n > 0);
        return this.nextDefinitions();
      }
      case 'definitions':
        if (--this.left > 0) return false;
        if (!deprecateEof) { this.state = 'definitions-eof'; return false; }
        return this.nextDefinitions();
      case 'definitions-eof':
        return this.nextDefinitions();
      case 'first': {
        if (p[0] === 0x00 || p[0] === 0xff || (p[0] === 0xfe && this.cmd !== COM.QUERY && this.cmd !== COM.STMT_EXECUTE)) {
          return p[0] === 0xff || !(statusOf(p) & SERVER_MORE_RESULTS_EXISTS);
        }
        const [count, at] = lenenc(p, 0);
        const metadata = cacheMetadata ? p[at] === 1 : true;
        if (metadata && count > 0) { this.state = 'columns'; this.left = count; return false; }
        this.state = deprecateEof ? 'rows' : 'columns-eof';
        return false;
      }
      case 'columns':
        if (--this.left > 0) return false;
        this.state = deprecateEof ? 'rows' : 'columns-eof';
        return false;
      case 'columns-eof':
        this.state = 'rows';
        return false;
      case 'rows':
        if (p[0] === 0xff) return true;
        if (!isEndOfRows(p, this.agreement)) return false;
        if (statusOf(p) & SERVER_MORE_RESULTS_EXISTS) { this.state = 'first'; return false; }
        return true;
      default:
        throw new Error(`reply tracker in state ${this.state}`);
    }
  }

  /** After a prepare reply's OK, or a block of definitions: the next block, or done. */
  nextDefinitions() {
    if (!this.pending.length) return true;
    this.left = this.pending.shift();
    this.state = 'definitions';
    return false;
  }
}
