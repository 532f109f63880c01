// The transfer bench's report section: per level and driver, transactions per second, their latency
// and the workload's own counts (committed, retries, deadlocks, lock wait timeouts). Pure.
import { fmtInt, fmtOps, fmtPct } from '../../lib/common/format-numbers.js';
import { textTable } from '../_text_table.js';

const ms = (us) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : '-');

/** Pure: the transfer section ('' when the run has no transfer rows). */
export function renderTransfer(results) {
  const entries = (results.benches ?? []).filter((b) => b.name === 'transfer');
  if (entries.length === 0) return '';
  const head = ['workers', 'driver', 'tx/s', '± rme', 'p50 ms', 'p95 ms', 'p99 ms', 'committed', 'retries', 'deadlocks', 'lock timeouts', 'money check'];
  const table = textTable({ head, style: { head: [], border: [], compact: true }, colAligns: ['right', 'left', ...head.slice(2, -1).map(() => 'right'), 'left'] });
  for (const entry of entries) {
    entry.results.forEach((r, i) => {
      const level = i === 0 ? String(entry.concurrency ?? results.settings?.concurrency ?? '') : '';
      if (!r.ok) {
        table.push([level, r.driver, r.status === 'n/a' ? 'n/a' : 'FAILED', '', '', '', '', '', '', '', '', r.status === 'n/a' ? '' : r.error]);
        return;
      }
      const w = r.workload ?? {};
      table.push([level, r.driver, fmtOps(r.opsPerSec), fmtPct(r.rme), ms(r.latency?.p50), ms(w.p95), ms(r.latency?.p99),
        fmtInt(w.committed), fmtInt(w.retries), fmtInt(w.deadlocks), fmtInt(w.lockWaitTimeouts), 'passed']);
    });
  }
  const accounts = results.settings?.transferAccounts;
  return `transfer · payments transactions (8 statements each) on ${accounts ? `${fmtInt(accounts)} ` : ''}accounts · `
    + 'money check after every window: each balance = seed + its transfers, sum unchanged, transfer rows = committed\n'
    + `${table.toString()}\n`;
}
