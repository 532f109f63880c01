// `calibrate`'s other side, in the driver process: the operation awaited back to back, nothing else,
// after the same lead-in as the harness's window and as many times as it would run it.
import { performance } from 'node:perf_hooks';
import { leadIn, leadInByCount } from './warm-up-loops.js';
import { ownCpuUs } from './sampler.js';
import { windowLead } from '../figures/window-sizing.js';

export async function bareLoop(op, count) {
  const start = performance.now();
  for (let i = 0; i < count; i++) await op();
  const seconds = (performance.now() - start) / 1000;
  return { opsPerSec: count / seconds, ops: count, seconds };
}

/** Sized the same way as the harness's window, from its own windows, so both sides run windows of one length. */
export async function bareWindow(op, { ops, check, sizer, lead, windowS, callTimeoutMs }) {
  const led = sizer.fixed
    ? await leadInByCount({ ops, check, count: sizer.leadOps, opsPerCheck: sizer.opsPerCheck, callTimeoutMs })
    : await leadIn({ ops, check, seconds: windowLead(lead, windowS), callTimeoutMs });
  const cpu0 = ownCpuUs();
  const from = performance.now();
  const m = await bareLoop(op, sizer.ops(led, windowS));
  const to = performance.now();
  const msPerOp = (m.seconds * 1000) / m.ops;
  return { opsPerSec: m.opsPerSec, samples: 1, ops: m.ops, opsRun: led.ops + m.ops, measuredFrom: from, measuredTo: to, cpuUs: ownCpuUs() - cpu0, msPerOp };
}
