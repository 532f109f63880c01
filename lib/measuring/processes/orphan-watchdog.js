// Ends the driver processes of a harness that died without ending them (SIGKILL, crash). A driver
// process that is stopped (SIGSTOP) between its windows cannot notice its parent going, so this
// small detached process is told each driver's pid on its stdin, and when stdin closes (the parent
// is gone, however it went) it kills them all. SIGKILL ends a stopped process too.
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
