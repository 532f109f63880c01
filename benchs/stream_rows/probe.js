// The streaming section of a run: for each row count and driver, fetch-all (query()) against the
// driver's streaming API, time per read and memory growth, every figure from a child process of its
// own (lib/stream-probe-child.js, run with --expose-gc) so no other measurement's garbage is in it.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Table from 'cli-table3';
import { fmtInt } from '../../lib/reporting/format.js';
import { redact } from '../../lib/cli/redact.js';
import { rotate } from '../../lib/measuring/runner.js';

const CHILD = fileURLToPath(new URL('./probe-child.js', import.meta.url));
export const MODES = ['fetch-all', 'stream'];

const isPath = (spec) => typeof spec === 'string' && /^(\.{1,2}\/|\/)|\.(m?js)$/.test(spec);

/** What a child process loads to get the same adapter: its module path, else its (exact) name. */
export function probeSpec(driver) {
  return isPath(driver.source) ? driver.source : driver.name;
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

export function fmtBytes(n) {
  if (!Number.isFinite(n)) return '-';
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${fmtInt(n / 1024)} KB`;
  return `${fmtInt(n)} B`;
}

const fmtMs = (ms) => (!Number.isFinite(ms) ? '-' : ms >= 100 ? fmtInt(ms) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));

/** For the largest row count: per driver, what streaming saves and what it costs against fetch-all. */
export function streamingSummary(streaming) {
  const largest = Math.max(...streaming.sizes);
  const out = [];
  const names = [...new Set(streaming.rows.map((r) => r.driver))];
  for (const driver of names) {
    const get = (mode) => streaming.rows.find((r) => r.rows === largest && r.driver === driver && r.mode === mode && r.ok);
    const all = get('fetch-all');
    const st = get('stream');
    if (!all || !st) continue;
    const pct = (a, b) => (b > 0 ? ((a - b) / b) * 100 : null);
    out.push({
      driver,
      rows: largest,
      timePct: pct(st.msPerRead, all.msPerRead),
      heapPeakPct: pct(st.heapPeakBytes, all.heapPeakBytes),
      heapHeldPct: pct(st.heapHeldBytes, all.heapHeldBytes),
      rssPeakPct: pct(st.rssPeakBytes, all.rssPeakBytes),
    });
  }
  return out;
}

const signed = (n) => (n === null || !Number.isFinite(n) ? '-' : `${n > 0 ? '+' : ''}${n.toFixed(0)} %`);

/** Pure: the streaming section of a results object ('' when it has none). */
export function renderStreaming(results) {
  const s = results.streaming;
  if (!s) return '';
  if (s.error) return `streaming: not measured: ${s.error}\n`;
  const order = [...(results.drivers ?? []).map((d) => d.name), ...s.rows.map((r) => r.driver)];
  const rank = (name) => order.indexOf(name);
  const rows = [...s.rows].sort((a, b) => a.rows - b.rows || rank(a.driver) - rank(b.driver) || MODES.indexOf(a.mode) - MODES.indexOf(b.mode));
  const head = ['rows', 'driver', 'read', 'ms/read', 'reads', 'heap peak Δ', 'heap held Δ', 'RSS peak Δ'];
  const table = new Table({ head, style: { head: [], border: [], compact: true }, colAligns: ['right', 'left', 'left', 'right', 'right', 'right', 'right', 'right'] });
  let lastRows = null;
  for (const r of rows) {
    const first = r.rows !== lastRows;
    lastRows = r.rows;
    if (!r.ok) {
      table.push([first ? fmtInt(r.rows) : '', r.driver, r.mode, r.status === 'n/a' ? 'n/a' : 'FAILED', '', '', '', '']);
      continue;
    }
    table.push([first ? fmtInt(r.rows) : '', r.driver, r.mode, fmtMs(r.msPerRead), String(r.reads), fmtBytes(r.heapPeakBytes), fmtBytes(r.heapHeldBytes), fmtBytes(r.rssPeakBytes)]);
  }
  const lines = [`streaming · reading N rows of ~${s.payloadBytes} bytes, fetch-all (query()) vs the driver's streaming API; `
    + 'each figure from its own child process; ms/read is the median read; Δ = growth over one read', table.toString()];
  const apis = [...new Map(rows.filter((r) => r.ok && r.mode === 'stream').map((r) => [r.driver, r.api])).entries()];
  if (apis.length) lines.push(`  streaming APIs: ${apis.map(([d, api]) => `${d} ${api}`).join(' · ')}`);
  const summary = streamingSummary(s);
  if (summary.length) {
    lines.push(`  ${fmtInt(summary[0].rows)} rows, stream vs fetch-all: `
      + summary.map((x) => `${x.driver} time ${signed(x.timePct)}, heap peak ${signed(x.heapPeakPct)}, held ${signed(x.heapHeldPct)}`).join(' · '));
  }
  for (const r of rows.filter((x) => x.status === 'failed')) lines.push(`  streaming ${r.rows} rows · ${r.driver} · ${r.mode}: FAILED: ${r.error}`);
  return lines.join('\n') + '\n';
}
