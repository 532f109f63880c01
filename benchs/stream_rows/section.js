// The stream_rows bench's report section: the streaming probe's figures (results.streaming) per row
// count, driver and way of reading, and what streaming saves against fetch-all. Pure.
import { fmtInt } from '../../lib/common/format-numbers.js';
import { textTable } from '../_text_table.js';

/** The two ways of reading N rows, in the order the section lists them. */
export const MODES = ['fetch-all', 'stream'];

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
  const table = textTable({ head, style: { head: [], border: [], compact: true }, colAligns: ['right', 'left', 'left', 'right', 'right', 'right', 'right', 'right'] });
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
