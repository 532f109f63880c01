// A lowest-priority busy loop that keeps one CPU from going idle (see wake.js).
// It exits by itself when the harness that started it is gone.
import { setPriority } from 'node:os';

try { setPriority(0, 19); } catch { /* not allowed: still only a busy loop */ }
const parent = process.ppid;
const parentAlive = () => {
  try { process.kill(parent, 0); return process.ppid === parent; } catch { return false; }
};
for (;;) {
  const until = Date.now() + 200;
  while (Date.now() < until) { /* spin */ }
  if (!parentAlive()) process.exit(0);
}
