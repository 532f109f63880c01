// What the window's own loop (sampler.js) allocates per operation, read once per driver process through
// the same code with an operation that allocates nothing: a window's bytes are given without it.
import { sampleWindow } from './sampler.js';
import { LatencyRecorder } from './latency.js';
import { windowSizer } from '../figures/window-sizing.js';

// The same settled promise every call: the empty operation allocates nothing of its own.
const SETTLED = Promise.resolve(true);
const emptyOp = () => SETTLED;

// Windows of a fixed length, the first ones run while V8 compiles the loop, the last one kept.
const CALIBRATION = Object.freeze({ windows: 3, ops: 20000, leadOps: 2000, opsPerCheck: 512, opsPerTiming: 64 });

let perOp = null;

export async function harnessBytesPerOp() {
  if (perOp !== null) return perOp;
  const { windows, ...fixed } = CALIBRATION;
  const sizer = windowSizer({ fixed });
  let last = null;
  for (let i = 0; i < windows; i++) {
    const m = await sampleWindow({ ops: [emptyOp], check: () => {}, sizer, windowS: 1, latencies: new LatencyRecorder(), name: 'harness' });
    await new Promise((resolve) => setImmediate(resolve)); // the GC observer's entries of the window
    const { allocatedBytes } = m.meter.figures();
    if (Number.isFinite(allocatedBytes)) last = allocatedBytes / m.ops;
  }
  perOp = last ?? 0;
  return perOp;
}
