// Which warm-up a bench gets in its driver process, one entry for the three kinds (the loops
// themselves: warm-up-loops.js): --rtt held (an unheld warm-up, the bench's hold, then a short held
// one that sizes the windows), --replay (a number of operations, the same in every process of the
// row), else until the time per operation settles.
import { setHold, takeRoundTrips } from '../../drivers/held-sockets.js';
import { measureHold, tuneHold } from './held-tuning.js';
import { warmUp, warmUpByCount } from './warm-up-loops.js';
import { awaitCompiles } from './jit.js';
import { fixedWindowSizing, windowSizer } from '../figures/window-sizing.js';
import { NEW_PROCESS_WARMUP_S } from '../figures/warm-up-lengths.js';

const HELD_SIZING_S = 0.05; // the held warm-up after an unheld one (--rtt): enough operations to size a window

/** A full collection where V8's gc() is exposed (a replayed row's processes), else null. */
const fullCollection = () => (typeof globalThis.gc === 'function' ? () => globalThis.gc() : null);

/**
 * Warm up `ops` for a bench. `firstBench`: the process's first, which also warms up the code every
 * bench runs. `hold`: --rtt held here ({ runHoldMs, tunedRttMs, benchHold }). `replay`: { warmupOps,
 * fixed, time, lead }. Returns { warmed, sizer, held }: the warm-up's figures, the sizer of the
 * bench's first window (figures/window-sizing.js), and --rtt's hold.
 */
export async function warmUpBench({ ops, check, warmup, settle, jitWait, callTimeoutMs, firstBench, hold, replay }) {
  const ownWarmup = settle && firstBench ? Math.max(warmup, NEW_PROCESS_WARMUP_S) : warmup;
  const awaitJit = jitWait ? awaitCompiles : undefined;
  setHold(0);
  if (hold.runHoldMs > 0) {
    // With --rtt the warm-up runs unheld: its "until up to speed" cannot see the driver's own time
    // under a round trip, and through held round trips it would run a few hundred operations where
    // a loopback warm-up runs tens of thousands (V8 optimizes by calls, not by time). Then a short
    // held warm-up sizes the windows at the held speed.
    const unheld = await warmUp({ ops, check, warmup: ownWarmup, settle, callTimeoutMs, awaitJit });
    // The bench's hold (held-tuning.js): tuned here when none is given (the reference row's first
    // process), else taken, and measured on this driver when asked (each other row's first process).
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
    // --replay: the same operations in every process of the row; its windows sized as the first's
    // until the coordinator sizes the rows side by side (a window's `fixed`).
    // A replayed row's processes have gc() (processes/launch.js): the warm-up collects once.
    const warmed = await warmUpByCount({ ops, check, count: replay.warmupOps, collect: fullCollection(), callTimeoutMs });
    const fixed = replay.fixed ?? fixedWindowSizing(warmed.msPerOp, { windowS: replay.windowS, lead: replay.lead });
    return { warmed, sizer: windowSizer({ fixed }), held: undefined };
  }
  const warmed = await warmUp({ ops, check, warmup: ownWarmup, settle, callTimeoutMs, awaitJit });
  return { warmed, sizer: windowSizer(warmed), held: undefined };
}
