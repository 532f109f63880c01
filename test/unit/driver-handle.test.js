// A driver process whose adapter cannot load: the start fails with the load error, and the process
// is gone at once (not left until the run ends). A run that ends while its processes are still
// starting (Ctrl-C or SIGTERM then) leaves none of them behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { DriverHandle } from '../../lib/measuring/processes/driver-handle.js';
import { DriverProcesses } from '../../lib/measuring/processes/driver-processes.js';

const driverChildren = () => execFileSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,args='], { encoding: 'utf8' })
  .split('\n').filter((line) => line.includes('driver-process.js'));

test('a driver process whose adapter fails to load is ended, and the start rejects with the load error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdb-handle-test-'));
  try {
    const adapter = join(dir, 'broken-adapter.js');
    writeFileSync(adapter, "throw new Error('this adapter cannot load');\n");
    let pid = null;
    await assert.rejects(
      DriverHandle.start({ driver: { name: 'broken', loadSpec: adapter }, target: {}, context: {}, place: (p) => { pid = p; } }),
      /this adapter cannot load/,
    );
    assert.equal(pid, null, 'never placed: it did not start');
    // This test file runs in a process of its own: any driver process still there would be its child.
    assert.deepEqual(driverChildren(), []);
  } finally {
    // Were one left, this file's process would wait on it for ever: end it, so the test fails instead.
    for (const line of driverChildren()) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('processes still starting when the run ends are ended too, and none is started after', async () => {
  const processes = new DriverProcesses({ target: {}, context: {} });
  const mysql2 = { name: 'mysql2' };
  try {
    // As a bench's rounds start its processes at once, and an interrupt ends the run meanwhile.
    const starts = Promise.allSettled([0, 1, 2].map((copy) => processes.get(mysql2, copy)));
    await processes.endAll();
    const settled = await starts;
    assert.ok(settled.every((s) => s.status === 'rejected' && /the run is ending/.test(s.reason.message)), JSON.stringify(settled.map((s) => s.status)));
    await assert.rejects(processes.get(mysql2, 3), /the run is ending/);
    assert.deepEqual(driverChildren(), []);
  } finally {
    for (const line of driverChildren()) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
  }
});
