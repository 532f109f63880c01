// Which warm-up a bench gets in its driver process (the loops: warm-up-loops.js): --rtt held, --replay
// (a number of operations, the same in every process of the row), else until the time per operation settles.
import { setHold, takeRoundTrips } from '../../drivers/held-sockets.js';
import { measureHold, tuneHold } from './held-tuning.js';
import { warmUp, warmUpByCount } from './warm-up-loops.js';
import { awaitCompiles } from './jit.js';
import { fixedWindowSizing, windowSizer } from '../figures/window-sizing.js';
import { NEW_PROCESS_WARMUP_S } from '../figures/warm-up-lengths.js';

const HELD_SIZING_S = 0.05; // the held warm-up after an unheld one (--rtt): enough operations to size a window

/** A full collection where V8's gc() is exposed (a replayed row's processes), else null. */
const fullCollection = () => (typeof globalThis.gc === 'function' ? () => globalThis.gc() : null);

/** `firstBench`: the process's first, which also warms up the code every bench runs. Returns { warmed, sizer, held }. */
export async function warmUpBench({ ops, check, warmup, settle, jitWait, callTimeoutMs, firstBench, hold, replay }) {
  const ownWarmup = settle && firstBench ? Math.max(warmup, NEW_PROCESS_WARMUP_S) : warmup;
  const awaitJit = jitWait ? awaitCompiles : undefined;
  setHold(0);
  if (hold.runHoldMs > 0) {
    // Unheld first: V8 optimizes by calls, and held round trips would allow only a few hundred. Then a
    // short held warm-up sizes the windows at the held speed.
    const unheld = await warmUp({ ops, check, warmup: ownWarmup, settle, callTimeoutMs, awaitJit });
    // The bench's hold: tuned by the reference row's first process, taken (and measured when asked) by the others.
    const { runHoldMs, tunedRttMs, benchHold } = hold;
    const timing = { ops, check, rttMs: tunedRttMs, msPerOp: unheld.msPerOp, hold: { set: setHold, roundTrips: takeRoundTrips }, callTimeoutMs };
    let held;
    if (!tunedRttMs) held = benchHold ? { holdMs: benchHold.holdMs } : undefined;
    else if (!benchHold) held = await tuneHold({ ...timing, holdMs: runHoldMs });
    else held = benchHold.measure ? await measureHold({ ...timing, holdMs: benchHold.holdMs }) : { holdMs: benchHold.holdMs };
    setHold(held?.holdMs ?? runHoldMs);
    const sizing = await warmUp({ ops, check, warmup: HELD_SIZING_S, settle: false, callTimeoutMs });
    const warmed = { ...sizing, seconds: sizing.seconds + unheld.seconds, compileWaitSeconds: unheld.compileWaitSeconds };
    return { warmed, sizer: windowSizer(warmed), held };
  }
  if (replay.warmupOps > 0) {
    // Sized as the first process's until the coordinator sizes the rows side by side (a window's
    // `fixed`). A replayed row's processes have gc() (processes/launch.js): the warm-up collects once.
    const warmed = await warmUpByCount({ ops, check, count: replay.warmupOps, collect: fullCollection(), callTimeoutMs });
    const fixed = replay.fixed ?? fixedWindowSizing(warmed.msPerOp, { windowS: replay.windowS, lead: replay.lead });
    return { warmed, sizer: windowSizer({ fixed }), held: undefined };
  }
  const warmed = await warmUp({ ops, check, warmup: ownWarmup, settle, callTimeoutMs, awaitJit });
  return { warmed, sizer: windowSizer(warmed), held: undefined };
}
