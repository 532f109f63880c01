// Child processes that end with this one: killed (SIGKILL) when it exits, whatever ends it.

const live = new Set();
let hooked = false;

function killAll() {
  for (const child of live) {
    try { child.kill('SIGKILL'); } catch { /* gone */ }
  }
}

/** Kill `child` when this process exits; returns what forgets it (once it has ended, or been ended). */
export function killOnExit(child) {
  if (!hooked) {
    process.on('exit', killAll);
    hooked = true;
  }
  live.add(child);
  return () => live.delete(child);
}
