// Stops an embedded mariadbd and removes its directory if the harness that
// started it dies without cleaning up (SIGKILL, crash). Runs detached.
import { rmSync } from 'node:fs';

const [parentPid, serverPid, dir] = process.argv.slice(2).map((v, i) => (i < 2 ? Number(v) : v));
const alive = (pid) => {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
};

const timer = setInterval(() => {
  if (alive(parentPid)) {
    if (!alive(serverPid)) { clearInterval(timer); }
    return;
  }
  clearInterval(timer);
  if (alive(serverPid)) {
    try { process.kill(serverPid, 'SIGTERM'); } catch { /* gone */ }
  }
  const deadline = Date.now() + 15000;
  const wait = setInterval(() => {
    if (alive(serverPid) && Date.now() < deadline) return;
    clearInterval(wait);
    if (alive(serverPid)) { try { process.kill(serverPid, 'SIGKILL'); } catch { /* gone */ } }
    rmSync(dir, { recursive: true, force: true });
  }, 200);
}, 500);
