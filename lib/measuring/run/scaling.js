// `--concurrency 1,4,16`: the run's levels, each measuring the chosen benches (their table: reporting/scaling.js).
import { usageError } from '../../common/errors.js';

const MAX_LEVEL = 1024;

/** commander parser for --concurrency: `4` -> 4; `1,4,16` -> [1, 4, 16] (in the order given). */
export function parseConcurrency(value) {
  const parts = String(value).split(',').map((s) => s.trim());
  const levels = parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n) || n < 1 || n > MAX_LEVEL) {
      throw usageError(`--concurrency must be a whole number of at least 1 (at most ${MAX_LEVEL}), or a list of them such as 1,4,16, not '${value}'`);
    }
    return n;
  });
  const dup = levels.find((n, i) => levels.indexOf(n) !== i);
  if (dup !== undefined) throw usageError(`--concurrency names level ${dup} twice: '${value}'`);
  return levels.length === 1 ? levels[0] : levels;
}

/** settings.concurrency (a number or a list) -> the list of levels. */
export const concurrencyLevels = (concurrency) => (Array.isArray(concurrency) ? concurrency : [concurrency ?? 1]);
