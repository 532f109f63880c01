// The execute_metadata benches' report section: per driver, the two benches' ops/s side by side and
// the metadata probe's bytes per execution (results.metadata). Pure.
import { fmtInt, fmtOps, fmtSignedPct } from '../../lib/common/format-numbers.js';
import { textTable } from '../_text_table.js';

const rowOf = (results, bench, driver) => {
  const entries = (results.benches ?? []).filter((b) => b.name === bench);
  const entry = entries.find((e) => (e.concurrency ?? 1) === 1) ?? entries[0];
  return entry?.results.find((r) => r.driver === driver) ?? null;
};

/** Pure: the metadata section ('' when the run has no metadata probe). */
export function renderMetadata(results) {
  const m = results.metadata;
  if (!m) return '';
  if (m.error) return `prepared-statement metadata: not measured: ${m.error}\n`;
  const offer = m.server.offered === null ? 'unknown' : m.server.offered ? 'yes' : 'no';
  const head = ['driver', 'unchanged ops/s', 'changing ops/s', 'Δ unchanged', 'bytes/exec unchanged', 'bytes/exec changing', 'skips metadata'];
  const table = textTable({ head, style: { head: [], border: [], compact: true }, colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'left'] });
  for (const d of m.drivers) {
    const a = rowOf(results, 'execute_metadata', d.driver);
    const b = rowOf(results, 'execute_metadata_changing', d.driver);
    const ops = (r) => (r?.ok ? fmtOps(r.opsPerSec) : r ? (r.status === 'n/a' ? 'n/a' : 'FAILED') : '');
    const delta = a?.ok && b?.ok ? fmtSignedPct(((a.opsPerSec - b.opsPerSec) / b.opsPerSec) * 100) : '';
    if (!d.ok) {
      table.push([d.driver, ops(a), ops(b), delta, '', '', d.status === 'n/a' ? `n/a: ${d.error}` : `FAILED: ${d.error}`]);
      continue;
    }
    table.push([d.driver, ops(a), ops(b), delta, fmtInt(d.bytesUnchanged), fmtInt(d.bytesChanging), d.skips ? 'yes' : 'no']);
  }
  return `prepared-statement metadata · server offers skipping unchanged metadata: ${offer} (${m.server.from}) · `
    + `bytes/exec = server Bytes_sent over ${m.executions} executions\n${table.toString()}\n`;
}
