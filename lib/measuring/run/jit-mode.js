// --jit: whether a driver process waits for V8's background compiles (driver/jit.js) outside its
// measured parts.
//   background  V8 compiles while the driver process runs, as in any process (the default)
//   wait        a driver process waits for V8's queued compiles at the end of its warm-up and
//               after each window, outside the measured parts: figures of the optimized code
import { usageError } from '../../common/errors.js';

export const JIT_MODES = ['background', 'wait'];
// Waiting would add mysql2's wide-row parsers' compiles, in each of a row's processes, to a default run's
// time (docs/history/2026-11-25-one-sitting.md#--jit-the-runs-measuringmd-gave).
export const DEFAULT_JIT = 'background';

/** Do a run's driver processes wait for V8's compiles after their warm-ups and windows? */
export const waitsForCompiles = (settings) => settings.jit === 'wait';

export function parseJit(value) {
  const v = String(value).trim();
  if (!JIT_MODES.includes(v)) throw usageError(`--jit must be one of ${JIT_MODES.join(', ')}, not '${value}'`);
  return v;
}
