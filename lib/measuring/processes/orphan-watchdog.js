// Ends the driver processes of a harness that died without ending them: a stopped (SIGSTOP) driver
// cannot notice its parent going. Told each pid on stdin; when stdin closes, SIGKILLs them all.
import { createInterface } from 'node:readline';

const pids = new Set();
createInterface({ input: process.stdin }).on('line', (line) => {
  const n = Number(line.trim());
  if (Number.isInteger(n) && n > 1) pids.add(n);
  else if (Number.isInteger(n) && n < -1) pids.delete(-n); // ended normally: its pid may be reused
}).on('close', () => {
  for (const pid of pids) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  process.exit(0);
});
