// Where the embedded server keeps its data (pure choice; the server itself is tested end to end).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseServerStorage, MIN_SHM_FREE_BYTES, SHM_DIR } from '../../lib/server/storage.js';

const TMPFS = 0x01021994;
const EXT4 = 0xef53;
const roomy = { type: TMPFS, freeBytes: MIN_SHM_FREE_BYTES };

test('a tmpfs /dev/shm with room takes the data, in memory', () => {
  assert.deepEqual(chooseServerStorage({ osTmpdir: '/tmp', shm: roomy, osTmp: { type: EXT4, freeBytes: 1e12 } }),
    { base: SHM_DIR, storage: 'memory' });
});

test('a small /dev/shm (a container\'s 64 MB), none, or not a tmpfs: the OS temp dir, on disk', () => {
  const osTmp = { type: EXT4, freeBytes: 1e12 };
  for (const shm of [{ type: TMPFS, freeBytes: 64 * 1024 ** 2 }, null, { type: EXT4, freeBytes: 1e12 }]) {
    assert.deepEqual(chooseServerStorage({ osTmpdir: '/tmp', shm, osTmp }), { base: '/tmp', storage: 'disk' });
  }
});

test('an explicit TMPDIR wins, and says whether it is in memory', () => {
  assert.deepEqual(chooseServerStorage({ tmpdirEnv: '/scratch', osTmpdir: '/scratch', shm: roomy, osTmp: { type: EXT4, freeBytes: 1e12 } }),
    { base: '/scratch', storage: 'disk' });
  assert.deepEqual(chooseServerStorage({ tmpdirEnv: '/run/t', osTmpdir: '/run/t', shm: roomy, osTmp: { type: TMPFS, freeBytes: 1e9 } }),
    { base: '/run/t', storage: 'memory' });
});
