// Replay sets on disk (lib/conversations/sets.js): what identifies one, and a damaged one refused. Pure, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadReplaySet, benchIdentity, decodeConversation, driverIdentity, findSet, readSet, saveSet, setPath } from '../../lib/conversations/sets.js';
import { EXIT } from '../../lib/common/errors.js';
import doBench from '../../benchs/do.js';
import select100 from '../../benchs/select_100_cols.js';

const recording = {
  serverVersion: '5.5.5-10.11.19-MariaDB',
  ops: 3,
  cycleFrom: 1,
  flights: [Buffer.from('greeting'), Buffer.from('ok')],
  steps: [{ cmd: 3, stmt: null, sent: 9, reply: Buffer.from([7, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]) }, { cmd: 3, stmt: null, sent: 9, reply: Buffer.from([1, 2]) }],
};
const identity = {
  bench: benchIdentity(doBench),
  driver: driverIdentity({ name: 'mysql2', loadSpec: 'mysql2', packageName: 'mysql2', version: '3.24.5' }),
  server: { embedded: true },
};

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'mdb-sets-'));
  try { return fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('a set is written, found by its identity, and read back byte for byte', () => withDir((dir) => {
  const file = saveSet(dir, { identity, recording, server: { version: '10.11.19-MariaDB' }, setupData: { k: [1] } });
  assert.equal(file, setPath(dir, identity));
  const found = findSet(dir, identity);
  assert.equal(found.file, file);
  assert.deepEqual(found.set.setupData, { k: [1] });
  const back = decodeConversation(found.set);
  assert.deepEqual(back.flights, recording.flights);
  assert.deepEqual(back.steps, recording.steps);
  assert.equal(back.cycleFrom, 1);
  assert.equal(findSet(dir, { ...identity, server: { embedded: false, address: '127.0.0.1:3306' } }), null);
}));

test('what identifies a set: the bench by its code, a repeat row by its driver, no checkout at all', () => {
  assert.notEqual(benchIdentity(doBench).hash, benchIdentity(select100).hash);
  assert.deepEqual(benchIdentity(doBench), benchIdentity({ ...doBench }));
  assert.notEqual(benchIdentity(doBench).hash, benchIdentity({ ...doBench, check: () => {} }).hash);
  const base = driverIdentity({ name: 'mysql2', loadSpec: 'mysql2', packageName: 'mysql2', version: '3.24.5' });
  assert.deepEqual(driverIdentity({ name: 'mysql2#aa', loadSpec: 'mysql2#aa', packageName: 'mysql2', version: '3.24.5' }), base);
  assert.notDeepEqual(driverIdentity({ name: 'mysql2', loadSpec: 'mysql2', packageName: 'mysql2', version: '3.24.6' }), base);
  assert.equal(driverIdentity({ name: 'mysql2@file:../x', local: true }), null);
});

test('a changed or truncated set is refused in one line, exit 2', () => withDir((dir) => {
  const file = saveSet(dir, { identity, recording, server: { version: 'x' } });
  const text = readFileSync(file, 'utf8');
  const set = JSON.parse(text);
  set.conversation.steps[1].reply = Buffer.from([1, 3]).toString('base64');
  writeFileSync(file, JSON.stringify(set));
  assert.throws(() => readSet(file), (err) => err instanceof BadReplaySet && err.exitCode === EXIT.USAGE && /digest/.test(err.message) && !err.message.includes('\n'));
  writeFileSync(file, text.slice(0, text.length / 2));
  assert.throws(() => readSet(file), (err) => err instanceof BadReplaySet && /truncated/.test(err.message));
  writeFileSync(file, JSON.stringify({ hello: 1 }));
  assert.throws(() => readSet(file), /not a replay set/);
}));

test('a driver that does not run a bench is stored as n/a, with its reason', () => withDir((dir) => {
  saveSet(dir, { identity, server: { version: 'x' }, notApplicable: { unsupported: 'no prepared statements' } });
  assert.deepEqual(findSet(dir, identity).set.notApplicable, { unsupported: 'no prepared statements' });
}));
