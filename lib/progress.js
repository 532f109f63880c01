// Progress lines on stderr while a run is under way.
import { fmtOps, fmtPct } from './format.js';

export function createProgress(stream, total, { quiet = false, rounds = 1 } = {}) {
  let n = 0;
  const started = Date.now();
  const write = (line) => { if (!quiet) stream.write(`${line}\n`); };
  const prefix = () => `[${String(n).padStart(String(total).length)}/${total}]`;
  return {
    log: (line) => write(line),
    start(bench, driver) {
      if (stream.isTTY && !quiet) stream.write(`  … ${bench.name} · ${driver.name}\r`);
    },
    skip() {
      n++;
    },
    done(bench, row, round = 0) {
      n++;
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      const what = row.ok
        ? `${fmtOps(row.opsPerSec)} ops/s ±${fmtPct(row.rme)}`
        : `${row.status === 'n/a' ? 'n/a' : 'FAILED'}: ${row.error}`;
      const r = rounds > 1 ? `round ${round + 1}/${rounds} ` : '';
      write(`${prefix()} ${r}${bench.name.padEnd(18)} ${row.driver.padEnd(10)} ${what}  (${secs} s)`);
    },
  };
}
