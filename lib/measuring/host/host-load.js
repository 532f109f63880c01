// What the host took while this machine measured: CPU time stolen by the hypervisor and time waiting
// for the disk, from /proc/stat. Linux only; null elsewhere.
import { readFileSync } from 'node:fs';

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

export function hostLoadBetween(a, b) {
  if (!a || !b || b.total <= a.total) return null;
  const span = b.total - a.total;
  const pct = (x) => Math.round(((x * 100) / span) * 10) / 10;
  return { stealPct: pct(b.steal - a.steal), iowaitPct: pct(b.iowait - a.iowait) };
}
