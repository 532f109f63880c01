// --jit: whether a driver process waits for V8's background compiles (driver/jit.js) outside its
// measured parts.
//   background  V8 compiles while the driver process runs, as in any process (the default)
//   wait        a driver process waits for V8's queued compiles at the end of its warm-up and
//               after each window, outside the measured parts: figures of the optimized code
import { usageError } from '../../common/errors.js';

export const JIT_MODES = ['background', 'wait'];
// Waiting costs a default run about 65 s here (mysql2's five wide-row parsers, about 3 s each in
// each of a row's four processes), which would take it past 4 minutes.
export const DEFAULT_JIT = 'background';

/** Do a run's driver processes wait for V8's compiles after their warm-ups and windows? */
export const waitsForCompiles = (settings) => settings.jit === 'wait';

export function parseJit(value) {
  const v = String(value).trim();
  if (!JIT_MODES.includes(v)) throw usageError(`--jit must be one of ${JIT_MODES.join(', ')}, not '${value}'`);
  return v;
}
