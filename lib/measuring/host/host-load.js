// What the host took from this machine while it measured: CPU time stolen by the hypervisor (a
// virtual machine's CPUs waiting for a physical one) and time spent waiting for the disk, from the
// kernel's counters in /proc/stat. Linux only; null elsewhere.
import { readFileSync } from 'node:fs';

/** The machine-wide CPU counters (clock ticks): { total, steal, iowait }, or null. */
export function readCpuCounters(text = null) {
  try {
    const line = (text ?? readFileSync('/proc/stat', 'utf8')).split('\n').find((l) => l.startsWith('cpu '));
    // user nice system idle iowait irq softirq steal guest guest_nice
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((s, x) => s + x, 0);
    return { total, iowait: f[4], steal: f[7] };
  } catch {
    return null;
  }
}

/** Pure: the share (%) of all CPU time between two readings that was stolen, and spent in I/O wait. */
export function hostLoadBetween(a, b) {
  if (!a || !b || b.total <= a.total) return null;
  const span = b.total - a.total;
  const pct = (x) => Math.round(((x * 100) / span) * 10) / 10;
  return { stealPct: pct(b.steal - a.steal), iowaitPct: pct(b.iowait - a.iowait) };
}
