// The wire format as --replay reads it (lib/conversations/wire.js, conversation.js): pure, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COM, PacketReader, ReplyTracker, canonicalGreeting, commandShape, readGreeting } from '../../lib/conversations/wire.js';
import { CommandMismatch, ConversationPlayer, ConversationRecorder } from '../../lib/conversations/conversation.js';

const packet = (seq, payload) => {
  const body = Buffer.from(payload);
  const head = Buffer.alloc(4);
  head.writeUIntLE(body.length, 0, 3);
  head[3] = seq;
  return Buffer.concat([head, body]);
};
const ok = (status = 0x0002) => Buffer.from([0x00, 0x00, 0x00, status & 0xff, status >> 8, 0x00, 0x00]);
const eof = (status = 0x0002) => Buffer.from([0xfe, 0x00, 0x00, status & 0xff, status >> 8]);
const okFe = (status = 0x0002) => Buffer.from([0xfe, 0x00, 0x00, status & 0xff, status >> 8, 0x00, 0x00]);
const column = Buffer.concat([Buffer.from([3]), Buffer.from('def'), Buffer.alloc(20, 1)]);
const row = Buffer.from([1, 0x31]);

/** Feeds payloads to a tracker; returns the index of the packet that ended the reply (-1: none did). */
function endOf(tracker, payloads) {
  return payloads.findIndex((p) => tracker.feed(p));
}

test('packets are split across chunk boundaries, a partial one waits for the rest', () => {
  const bytes = Buffer.concat([packet(0, 'abc'), packet(1, 'hello')]);
  const reader = new PacketReader();
  const first = reader.push(bytes.subarray(0, 9));
  assert.equal(first.length, 1);
  assert.equal(first[0].payload.toString(), 'abc');
  assert.equal(reader.pending, 2);
  const second = reader.push(bytes.subarray(9));
  assert.deepEqual(second.map((p) => [p.seq, p.payload.toString()]), [[1, 'hello']]);
  assert.equal(reader.pending, 0);
});

test('a command shape has its statement id where the command has one', () => {
  assert.deepEqual(commandShape(Buffer.from([COM.QUERY, 0x44, 0x4f])), { cmd: COM.QUERY, stmt: null });
  assert.deepEqual(commandShape(Buffer.from([COM.STMT_EXECUTE, 7, 0, 0, 0, 0, 1, 0, 0, 0])), { cmd: COM.STMT_EXECUTE, stmt: 7 });
});

test('an OK or ERR reply ends at its first packet, unless more results follow', () => {
  const plain = { deprecateEof: false, cacheMetadata: false };
  assert.equal(endOf(new ReplyTracker(COM.QUERY, plain), [ok()]), 0);
  assert.equal(endOf(new ReplyTracker(COM.QUERY, plain), [Buffer.from([0xff, 0x10, 0x04])]), 0);
  assert.equal(endOf(new ReplyTracker(COM.QUERY, plain), [ok(0x000a), ok()]), 1); // SERVER_MORE_RESULTS_EXISTS, then the last
});

test('a text result set ends at its closing EOF, or at its closing OK with CLIENT_DEPRECATE_EOF', () => {
  const plain = { deprecateEof: false, cacheMetadata: false };
  assert.equal(endOf(new ReplyTracker(COM.QUERY, plain), [Buffer.from([2]), column, column, eof(), row, row, eof()]), 6);
  const deprecated = { deprecateEof: true, cacheMetadata: false };
  assert.equal(endOf(new ReplyTracker(COM.QUERY, deprecated), [Buffer.from([2]), column, column, row, okFe()]), 4);
  // a result set, then another (more results), then its end
  assert.equal(endOf(new ReplyTracker(COM.QUERY, deprecated), [Buffer.from([1]), column, row, okFe(0x000a), Buffer.from([1]), column, okFe()]), 6);
});

test("MariaDB's cached metadata: with the flag at 0 no column definitions follow", () => {
  const cached = { deprecateEof: true, cacheMetadata: true };
  assert.equal(endOf(new ReplyTracker(COM.STMT_EXECUTE, cached), [Buffer.from([100, 0]), Buffer.from([0, 0, 1]), okFe()]), 2);
  assert.equal(endOf(new ReplyTracker(COM.STMT_EXECUTE, cached), [Buffer.from([1, 1]), column, Buffer.from([0, 0, 1]), okFe()]), 3);
});

test('a prepare reply ends after its parameter and column definitions (and their EOFs)', () => {
  const prepareOk = (columns, params) => Buffer.from([0x00, 1, 0, 0, 0, columns, 0, params, 0, 0, 0, 0]);
  const plain = { deprecateEof: false, cacheMetadata: false };
  assert.equal(endOf(new ReplyTracker(COM.STMT_PREPARE, plain), [prepareOk(1, 2), column, column, eof(), column, eof()]), 5);
  assert.equal(endOf(new ReplyTracker(COM.STMT_PREPARE, { deprecateEof: true }), [prepareOk(1, 0), column]), 1);
  assert.equal(endOf(new ReplyTracker(COM.STMT_PREPARE, plain), [prepareOk(0, 0)]), 0);
});

/** A conversation recorded from synthetic bytes: greeting, handshake, then DO-like queries. */
function recordQueries(ops) {
  const rec = new ConversationRecorder();
  rec.serverBytes(packet(0, Buffer.concat([Buffer.from([10]), Buffer.from('10.11.0-MariaDB\0'), Buffer.alloc(40)])));
  rec.clientBytes(packet(1, Buffer.alloc(40)));
  rec.serverBytes(packet(2, ok()));
  for (let i = 0; i < ops; i++) {
    rec.markOp();
    rec.clientBytes(packet(0, Buffer.from([COM.QUERY, ...Buffer.from(`DO ${i}`)])));
    rec.serverBytes(packet(1, ok()));
  }
  return rec.finish();
}

test('a recording plays its handshake, then each step, then round from the repeating part', () => {
  const recording = recordQueries(4);
  assert.equal(recording.steps.length, 4);
  assert.equal(recording.cycleFrom, 1);
  const player = new ConversationPlayer(recording);
  assert.ok(recording.flights[0].length > 4);
  assert.deepEqual(player.handshake(), recording.flights[0]); // the greeting, as recorded
  assert.equal(player.clientBytes(packet(1, Buffer.alloc(40))).length, 1); // the handshake's OK
  for (let i = 0; i < 10; i++) {
    const replies = player.clientBytes(packet(0, Buffer.from([COM.QUERY, 0x31])));
    assert.deepEqual(replies, [packet(1, ok())]);
  }
  assert.throws(() => player.clientBytes(packet(0, Buffer.from([COM.PING]))), (err) => err instanceof CommandMismatch && /COM_PING/.test(err.message) && /COM_QUERY/.test(err.message));
});

test('a recording whose reply the protocol cannot end is refused', () => {
  const rec = new ConversationRecorder();
  rec.serverBytes(packet(0, Buffer.from([10, 0x30, 0])));
  rec.clientBytes(packet(1, Buffer.alloc(40)));
  rec.serverBytes(packet(2, ok()));
  for (let i = 0; i < 2; i++) {
    rec.markOp();
    rec.clientBytes(packet(0, Buffer.from([COM.QUERY, 0x31])));
    rec.serverBytes(packet(1, Buffer.from([1]))); // a result set that never ends
  }
  assert.throws(() => rec.finish(), /did not end where the protocol says/);
});

// Two greetings of MariaDB 10.11 captured a run apart: the same but for the scramble.
const GREETINGS = [
  '640000000a352e352e352d31302e31312e31392d4d6172696144422d302b6465623132753100170000006d314c684667524600fef7080200ff81150000000000001d000000497947377a264a22696d6945006d7973716c5f6e61746976655f70617373776f726400',
  '640000000a352e352e352d31302e31312e31392d4d6172696144422d302b6465623132753100170000006b6f6e5a582b6b5b00fef7080200ff81150000000000001d00000064644a277e6a77384f642d4e006d7973716c5f6e61746976655f70617373776f726400',
].map((hex) => Buffer.from(hex, 'hex'));

test('a greeting is recorded with its connection id and scramble made the same: two captures, one set of bytes', () => {
  const [a, b] = GREETINGS.map(canonicalGreeting);
  assert.ok(a.equals(b));
  assert.equal(a.length, GREETINGS[0].length);
  assert.deepEqual(readGreeting(a.subarray(4)), readGreeting(GREETINGS[0].subarray(4)), 'version and capabilities kept');
  const payload = a.subarray(4);
  const idAt = payload.indexOf(0, 1) + 1;
  assert.equal(payload.readUInt32LE(idAt), 1);
  assert.equal(payload.subarray(idAt + 4, idAt + 12).toString(), 'AAAAAAAA');
  assert.match(payload.toString('latin1'), /AAAAAAAAAAAA\0mysql_native_password\0$/);
  assert.ok(canonicalGreeting(packet(0, Buffer.from([0xff, 0x10, 0x04]))).equals(packet(0, Buffer.from([0xff, 0x10, 0x04]))), 'an error packet is kept');
  const recorder = new ConversationRecorder();
  recorder.serverBytes(GREETINGS[1]);
  assert.ok(recorder.flights[0][0].equals(a));
});
