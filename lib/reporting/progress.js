// Progress lines on stderr while a run is under way: one line per bench when it is done, and on a
// terminal the round being measured.
import { fmtOps } from '../common/format-numbers.js';
import { counterOf } from '../replay/counters/index.js';

export function createProgress(stream, total, { quiet = false } = {}) {
  let n = 0;
  const started = Date.now();
  const write = (line) => { if (!quiet) stream.write(`${line}\n`); };
  const prefix = () => `[${String(n).padStart(String(total).length)}/${total}]`;
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
  return {
    log: (line) => write(line),
    round(bench, r, rounds) {
      if (stream.isTTY && !quiet) stream.write(`  … ${bench.name} · round ${r + 1}/${rounds}  (${seconds()} s)\x1b[K\r`);
    },
    benchDone(bench, rows, hostLoad) {
      n++;
      const counted = rows.find((row) => row.count)?.count;
      const figure = (row) => (counted ? fmtOps(row.count.perOp) : fmtOps(row.opsPerSec));
      const what = rows.map((row) => `${row.driver} ${row.ok ? figure(row) : row.status === 'n/a' ? 'n/a' : 'FAILED'}`).join(' · ');
      const stolen = hostLoad?.stealPct >= 1 ? `, host stole ${hostLoad.stealPct} % of the CPU time` : '';
      write(`${prefix()} ${bench.name.padEnd(18)} ${what} ${counted ? counterOf(counted).unit : 'ops/s'}  (${seconds()} s${stolen})`);
      for (const row of rows) if (row.status === 'failed') write(`    ${row.driver} FAILED: ${row.error}`);
    },
  };
}
