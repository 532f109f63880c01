// CPU time of another process (all its threads), from /proc/<pid>/stat: user + system, in µs.
// Linux only; null elsewhere or when the process is gone. Resolution: one clock tick (10 ms).
import { readFileSync } from 'node:fs';

const TICK_US = 10000; // USER_HZ is 100 on Linux

export function processCpuUs(pid) {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
  } catch {
    return null;
  }
}
