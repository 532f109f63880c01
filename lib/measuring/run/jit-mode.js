// --jit background|wait: whether a driver process waits for V8's background compiles (driver/jit.js)
// after its warm-up and windows (docs/measuring.md, "V8's background compiles: `--jit`").
import { usageError } from '../../common/errors.js';

export const JIT_MODES = ['background', 'wait'];
// Waiting would add mysql2's wide-row parsers' compiles, in each of a row's processes, to a default run's
// time (docs/history/2026-11-25-one-sitting.md#--jit-the-runs-measuringmd-gave).
export const DEFAULT_JIT = 'background';

export const waitsForCompiles = (settings) => settings.jit === 'wait';

export function parseJit(value) {
  const v = String(value).trim();
  if (!JIT_MODES.includes(v)) throw usageError(`--jit must be one of ${JIT_MODES.join(', ')}, not '${value}'`);
  return v;
}
