// The stream_rows bench's extra measurement (its `probe`): for each row count and driver, fetch-all
// (query()) against the driver's streaming API, time per read and memory growth, every figure from a
// child process of its own (probe-child.js, run with --expose-gc) so no other measurement's garbage
// is in it. Loaded by the bench only when the probe runs.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { redact } from '../../lib/common/redact.js';
import { rotate } from '../../lib/common/rotate.js';
import { MODES, fmtBytes } from './section.js';
import { ROWS_AS_ARRAYS_NOTE } from '../../lib/drivers/variants.js';

const CHILD = fileURLToPath(new URL('./probe-child.js', import.meta.url));

const isPath = (spec) => typeof spec === 'string' && /^(\.{1,2}\/|\/)|\.(m?js)$/.test(spec);

/** What a child process loads to get the same adapter: its module path, else its (exact) name. */
export function probeSpec(driver) {
  return driver.loadSpec ?? (isPath(driver.source) ? driver.source : driver.name);
}

/** How much to measure per child: tiny in smoke mode. */
export function probeBudget(settings) {
  if (settings.mode === 'smoke') return { budgetMs: 0, minReads: 1, maxReads: 1, warmupReads: 2, warmupMs: 0 };
  return { budgetMs: Math.min(400, (settings.time ?? 2.5) * 160), minReads: 3, maxReads: 1000, warmupReads: 5, warmupMs: 150 };
}

/** Run one job in a child; resolves to { ok, result } or { ok: false, error }. Never rejects. */
export function runChild(job, { signal, timeoutMs = 120000 } = {}) {
  return new Promise((resolve) => {
    let child;
    try {
      child = fork(CHILD, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    } catch (err) {
      resolve({ ok: false, error: `cannot start the probe process: ${err.message}` });
      return;
    }
    let reply = null;
    let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-2000); });
    const kill = () => { try { child.kill('SIGKILL'); } catch { /* gone */ } };
    const timer = setTimeout(() => { reply ??= { ok: false, error: `no result within ${timeoutMs / 1000} s` }; kill(); }, timeoutMs);
    const onAbort = () => { reply ??= { ok: false, error: 'stopped', aborted: true }; kill(); };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (m) => { reply ??= m; });
    child.on('error', (err) => { reply ??= { ok: false, error: err.message }; });
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const last = stderr.trim().split('\n').at(-1);
      resolve(reply ?? { ok: false, error: redact(`probe process exited (${sig ?? code})${last ? `: ${last}` : ''}`) });
    });
    child.send(job);
  });
}

/**
 * @returns {Promise<{sizes, rows: Array}>} one row per (rows, driver, mode) in measured order
 */
export async function runStreamingProbe({ drivers, target, settings, sizes, signal, log = () => {} }) {
  const budget = probeBudget(settings);
  const out = { sizes, payloadBytes: 200, method: 'one child process per figure, --expose-gc; heap sampled every 1 ms and every 1024 rows', rows: [] };
  for (let s = 0; s < sizes.length; s++) {
    const rows = sizes[s];
    for (const driver of rotate(drivers, s)) {
      for (const mode of MODES) {
        signal?.throwIfAborted();
        const row = { rows, driver: driver.name, mode };
        if (driver.capabilities?.floor) {
          out.rows.push({ ...row, ok: false, status: 'n/a', error: 'a reference client that builds no rows' });
          continue;
        }
        if (driver.extraOptions?.rowsAsArray) {
          out.rows.push({ ...row, ok: false, status: 'n/a', error: ROWS_AS_ARRAYS_NOTE });
          continue;
        }
        if (mode === 'stream' && !driver.capabilities?.stream) {
          out.rows.push({ ...row, ok: false, status: 'n/a', error: 'no streaming API in this adapter' });
          continue;
        }
        const reply = await runChild({ spec: probeSpec(driver), target, rows, mode, ...budget }, { signal });
        if (reply.aborted) signal?.throwIfAborted();
        out.rows.push(reply.ok
          ? { ...row, ok: true, status: 'ok', ...reply.result, driver: driver.name }
          : { ...row, ok: false, status: 'failed', error: reply.error });
        const last = out.rows.at(-1);
        log(`streaming ${String(rows).padStart(6)} rows ${driver.name.padEnd(10)} ${mode.padEnd(9)} `
          + (last.ok ? `${last.msPerRead.toFixed(2)} ms/read, heap peak +${fmtBytes(last.heapPeakBytes)}` : `FAILED: ${last.error}`));
      }
    }
  }
  return out;
}
