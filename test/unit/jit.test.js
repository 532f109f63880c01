// Waiting for V8's background compiles (measuring/jit.js), in processes of its own: the hook needs
// a V8 flag that this test process does not have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { DRIVER_PROCESS_FLAGS, JIT_HOOK_FLAG } from '../../lib/measuring/processes/launch.js';

const JIT = new URL('../../lib/measuring/driver/jit.js', import.meta.url).href;

function runModule(flags, source) {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', source], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('with the flag, a compile queued on a background thread is done when awaitCompiles returns', () => {
  // %GetOptimizationStatus's bit 16: the function runs optimized code.
  const out = runModule([JIT_HOOK_FLAG], `
    import { awaitCompiles, canAwaitCompiles } from ${JSON.stringify(JIT)};
    function sum(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
    %PrepareFunctionForOptimization(sum);
    sum(10); sum(10);
    %OptimizeFunctionOnNextCall(sum, 'concurrent');
    sum(10);
    const waited = awaitCompiles();
    console.log(JSON.stringify({ can: canAwaitCompiles(), waited, optimized: (%GetOptimizationStatus(sum) & 16) !== 0 }));
  `);
  assert.equal(out.can, true);
  assert.ok(out.waited >= 0);
  assert.equal(out.optimized, true);
});

test('without the flag, nothing waits', () => {
  const out = runModule([], `
    import { awaitCompiles, canAwaitCompiles } from ${JSON.stringify(JIT)};
    console.log(JSON.stringify({ can: canAwaitCompiles(), waited: awaitCompiles() }));
  `);
  assert.deepEqual(out, { can: false, waited: 0 });
});

test('every driver process runs with the flag', () => {
  assert.ok(DRIVER_PROCESS_FLAGS.includes(JIT_HOOK_FLAG));
});

test('--jit takes background or wait, and nothing else', async () => {
  const { parseJit, DEFAULT_JIT } = await import('../../lib/measuring/run/jit-mode.js');
  assert.equal(DEFAULT_JIT, 'background');
  assert.equal(parseJit(' wait '), 'wait');
  assert.throws(() => parseJit('always'), /--jit must be one of background, wait, not 'always'/);
});

test('a run records its JIT mode, the default when none is asked for', async () => {
  const { runSettings } = await import('../../lib/resolve-run.js');
  const benches = [{ name: 'do' }];
  assert.equal(runSettings({ drivers: ['mysql2'], wake: { mode: 'none' } }, benches).jit, 'background');
  assert.equal(runSettings({ drivers: ['mysql2'], wake: { mode: 'none' }, jit: 'wait' }, benches).jit, 'wait');
});
