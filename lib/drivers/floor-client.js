// A minimal client of the MySQL protocol, written as a reference floor: connect, authenticate
// (mysql_native_password, directly or after an auth switch), send COM_QUERY, and read the reply
// packets to the end without building rows. What a Node.js client on this machine cannot go below.
import { connect as tcpConnect } from 'node:net';
import { createHash } from 'node:crypto';

const CLIENT = {
  LONG_PASSWORD: 1, LONG_FLAG: 4, CONNECT_WITH_DB: 8, PROTOCOL_41: 512, TRANSACTIONS: 8192,
  SECURE_CONNECTION: 32768, MULTI_RESULTS: 1 << 17, PLUGIN_AUTH: 1 << 19, DEPRECATE_EOF: 1 << 24,
};
const WANTED = CLIENT.LONG_PASSWORD | CLIENT.LONG_FLAG | CLIENT.PROTOCOL_41 | CLIENT.TRANSACTIONS
  | CLIENT.SECURE_CONNECTION | CLIENT.MULTI_RESULTS | CLIENT.PLUGIN_AUTH | CLIENT.DEPRECATE_EOF;
const UTF8MB4_UNICODE_CI = 224;
const MAX_PACKET = 0xffffff;
const SERVER_MORE_RESULTS_EXIST = 8;

export class FloorError extends Error {
  constructor(message, { errno, sqlState, code } = {}) {
    super(message);
    this.name = 'FloorError';
    this.errno = errno;
    this.sqlState = sqlState;
    this.code = code ?? (errno === 1045 ? 'ER_ACCESS_DENIED_ERROR' : undefined);
    this.sqlMessage = errno ? message : undefined;
  }
}

const sha1 = (...parts) => { const h = createHash('sha1'); for (const p of parts) h.update(p); return h.digest(); };

/** mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))). */
export function nativePasswordToken(password, scramble) {
  if (!password) return Buffer.alloc(0);
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  const stage2 = sha1(stage1);
  const mix = sha1(scramble, stage2);
  for (let i = 0; i < mix.length; i++) mix[i] ^= stage1[i];
  return mix;
}

/** Length-encoded integer at `pos`: [value, next position]. */
export function readLenenc(buf, pos) {
  const first = buf[pos];
  if (first < 0xfb) return [first, pos + 1];
  if (first === 0xfb) return [null, pos + 1];
  if (first === 0xfc) return [buf.readUInt16LE(pos + 1), pos + 3];
  if (first === 0xfd) return [buf.readUIntLE(pos + 1, 3), pos + 4];
  return [Number(buf.readBigUInt64LE(pos + 1)), pos + 9];
}

/** Decode a text-protocol row packet into strings (null for NULL). Used by checks, not by the floor itself. */
export function decodeTextRow(buf) {
  const values = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf[pos] === 0xfb) { values.push(null); pos++; continue; }
    const [len, at] = readLenenc(buf, pos);
    values.push(buf.toString('utf8', at, at + len));
    pos = at + len;
  }
  return values;
}

function parseErr(payload) {
  const errno = payload.readUInt16LE(1);
  const hasState = payload[3] === 0x23; // '#'
  const sqlState = hasState ? payload.toString('latin1', 4, 9) : undefined;
  const message = payload.toString('utf8', hasState ? 9 : 3);
  return new FloorError(message, { errno, sqlState });
}

function parseOk(payload) {
  let pos = 1;
  let affectedRows;
  let insertId;
  [affectedRows, pos] = readLenenc(payload, pos);
  [insertId, pos] = readLenenc(payload, pos);
  const serverStatus = payload.readUInt16LE(pos);
  const warningStatus = payload.readUInt16LE(pos + 2);
  return { affectedRows, insertId, serverStatus, warningStatus };
}

const interpolate = (sql, params = []) => {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const v = params[i++];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new FloorError('the floor client only binds finite numbers');
    return String(v);
  });
};

export class FloorConnection {
  constructor(socket) {
    this.socket = socket;
    this.pending = Buffer.alloc(0); // bytes of an incomplete packet
    this.partial = null; // payload pieces of a packet split at 16 MiB
    this.handler = null; // receives each complete payload
    this.seq = 0;
    this.deprecateEof = false;
    this.failure = null;
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(Object.assign(new FloorError('connection closed by the server'), { code: 'PROTOCOL_CONNECTION_LOST' })));
  }

  fail(err) {
    if (this.failure) return;
    this.failure = err;
    const h = this.handler;
    this.handler = null;
    h?.(null, err);
  }

  onData(chunk) {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let pos = 0;
    while (buf.length - pos >= 4) {
      const len = buf.readUIntLE(pos, 3);
      if (buf.length - pos - 4 < len) break;
      this.seq = (buf[pos + 3] + 1) & 0xff;
      const payload = buf.subarray(pos + 4, pos + 4 + len);
      pos += 4 + len;
      if (len === MAX_PACKET) { (this.partial ??= []).push(payload); continue; }
      const whole = this.partial ? Buffer.concat([...this.partial, payload]) : payload;
      this.partial = null;
      this.handler?.(whole, null);
    }
    this.pending = pos < buf.length ? Buffer.from(buf.subarray(pos)) : Buffer.alloc(0);
  }

  send(payload, seq) {
    const header = Buffer.alloc(4);
    header.writeUIntLE(payload.length, 0, 3);
    header[3] = seq;
    this.socket.write(Buffer.concat([header, payload]));
  }

  /** Send COM_QUERY and resolve with the reply: an OK summary, or { columnCount, rowCount, lastRow }. */
  query(sql, params) {
    if (this.failure) return Promise.reject(this.failure);
    if (this.handler) return Promise.reject(new FloorError('the floor client runs one statement at a time'));
    const text = params && params.length ? interpolate(sql, params) : sql;
    return new Promise((resolve, reject) => {
      let state = 'first';
      let columnsLeft = 0;
      let result = null;
      const done = (value, err) => { this.handler = null; if (err) reject(err); else resolve(value); };
      this.handler = (payload, err) => {
        if (err) return done(null, err);
        const head = payload[0];
        if (state === 'first') {
          if (head === 0x00) return done(parseOk(payload));
          if (head === 0xff) return done(null, parseErr(payload));
          if (head === 0xfb) return done(null, new FloorError('LOCAL INFILE is not supported by the floor client'));
          [columnsLeft] = readLenenc(payload, 0);
          result = { columnCount: columnsLeft, rowCount: 0, lastRow: null };
          state = 'columns';
          return undefined;
        }
        if (state === 'columns') {
          if (--columnsLeft === 0) state = this.deprecateEof ? 'rows' : 'eof';
          return undefined;
        }
        if (state === 'eof') { state = 'rows'; return undefined; }
        // rows: an EOF/OK packet (0xfe, short) ends the set; 0xff is an error mid-stream
        if (head === 0xfe && payload.length < 0xffffff && (this.deprecateEof || payload.length < 9)) {
          const status = payload.readUInt16LE(this.deprecateEof ? okStatusOffset(payload) : 3);
          if (status & SERVER_MORE_RESULTS_EXIST) { state = 'first'; return undefined; }
          return done(result);
        }
        if (head === 0xff) return done(null, parseErr(payload));
        result.rowCount++;
        result.lastRow = payload;
        return undefined;
      };
      const body = Buffer.from(text, 'utf8');
      const payload = Buffer.allocUnsafe(body.length + 1);
      payload[0] = 0x03; // COM_QUERY
      body.copy(payload, 1);
      this.send(payload, 0);
    });
  }

  close() {
    if (!this.failure && !this.socket.destroyed) this.send(Buffer.from([0x01]), 0); // COM_QUIT
    this.socket.end();
    return Promise.resolve();
  }

  destroy() {
    this.socket.destroy();
  }
}

function okStatusOffset(payload) {
  let pos = 1;
  [, pos] = readLenenc(payload, pos);
  [, pos] = readLenenc(payload, pos);
  return pos;
}

/** Connect and authenticate. target: { host, port, socket, user, password, database, connectTimeout } */
export function connectFloor(target) {
  return new Promise((resolve, reject) => {
    const socket = target.socket ? tcpConnect(target.socket) : tcpConnect({ host: target.host, port: target.port, noDelay: true });
    socket.setNoDelay?.(true);
    const conn = new FloorConnection(socket);
    const timer = setTimeout(() => { socket.destroy(); reject(Object.assign(new FloorError('connect timeout'), { code: 'ETIMEDOUT' })); }, target.connectTimeout ?? 10000);
    const finish = (err) => { clearTimeout(timer); conn.handler = null; if (err) { socket.destroy(); reject(err); } else resolve(conn); };
    let stage = 'handshake';
    conn.handler = (payload, err) => {
      if (err) return finish(err);
      if (stage === 'handshake') {
        if (payload[0] === 0xff) return finish(parseErr(payload));
        let pos = payload.indexOf(0, 1) + 1; // after the server version
        pos += 4; // connection id
        const part1 = payload.subarray(pos, pos + 8);
        pos += 9; // + filler
        let caps = payload.readUInt16LE(pos);
        pos += 2 + 1 + 2; // + charset + status
        caps |= payload.readUInt16LE(pos) << 16;
        pos += 2;
        const authLen = payload[pos];
        pos += 1 + 10;
        const part2Len = Math.max(13, authLen - 8);
        const part2 = payload.subarray(pos, pos + part2Len - 1); // drop the trailing NUL
        pos += part2Len;
        const plugin = (caps & CLIENT.PLUGIN_AUTH) ? payload.toString('latin1', pos, payload.indexOf(0, pos) < 0 ? payload.length : payload.indexOf(0, pos)) : 'mysql_native_password';
        const scramble = Buffer.concat([part1, part2]);
        let flags = (WANTED & caps) | CLIENT.PROTOCOL_41;
        if (target.database) flags |= CLIENT.CONNECT_WITH_DB & caps;
        conn.deprecateEof = Boolean(flags & CLIENT.DEPRECATE_EOF);
        const token = plugin === 'mysql_native_password' ? nativePasswordToken(target.password, scramble) : Buffer.alloc(0);
        const head = Buffer.alloc(32);
        head.writeUInt32LE(flags >>> 0, 0);
        head.writeUInt32LE(MAX_PACKET, 4);
        head[8] = UTF8MB4_UNICODE_CI;
        const parts = [head, Buffer.from(`${target.user}\0`, 'utf8'), Buffer.from([token.length]), token];
        if (flags & CLIENT.CONNECT_WITH_DB) parts.push(Buffer.from(`${target.database}\0`, 'utf8'));
        if (flags & CLIENT.PLUGIN_AUTH) parts.push(Buffer.from('mysql_native_password\0', 'latin1'));
        stage = 'auth';
        conn.send(Buffer.concat(parts), conn.seq);
        return undefined;
      }
      // auth reply
      if (payload[0] === 0x00) return finish(null);
      if (payload[0] === 0xff) return finish(parseErr(payload));
      if (payload[0] === 0xfe) {
        const end = payload.indexOf(0, 1);
        const plugin = payload.toString('latin1', 1, end);
        if (plugin !== 'mysql_native_password') {
          return finish(new FloorError(`the floor client supports mysql_native_password only; the server asked for ${plugin}`));
        }
        const scramble = payload.subarray(end + 1, end + 21);
        conn.send(nativePasswordToken(target.password, scramble), conn.seq);
        return undefined;
      }
      return finish(new FloorError(`unexpected authentication reply 0x${payload[0].toString(16)}`));
    };
    socket.once('error', (err) => finish(err));
  });
}
