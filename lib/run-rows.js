// One run of the harness made by another command (bisect, ci-driver, record): its benches and rows
// given as values, not a command line, its results read back from the file it saved.
import { existsSync, readFileSync } from 'node:fs';
import { selectBenches } from '../benchs/index.js';
import { EXIT } from './common/errors.js';
import { sayError } from './common/error-line.js';
import { runBenchmark } from './run.js';

const sink = { write: () => true };

/**
 * `drivers`: row specs, the first the baseline unless `baseline`; `flags`: the run's other options by
 * their camelCase names. Resolves to { code, results (null when none saved), said (its stderr) }.
 */
export async function runRows({ benches, drivers, baseline = drivers[0], replay = true, count, out, json, flags = {}, env = process.env, stdout = sink, stderr, signal, debug = false }) {
  let said = '';
  const heard = { write: (s) => { said += s; stderr?.write(s); return true; } };
  const options = { drivers, baseline, concurrency: 1, replay, ...(count ? { count } : {}), out, json, ...flags };
  let code;
  try {
    code = await runBenchmark({ benches: selectBenches(benches), opts: options, env, stdout, stderr: heard, signal });
  } catch (err) {
    code = sayError(err, { stderr: heard, debug });
  }
  const results = existsSync(json) && code !== EXIT.USAGE ? JSON.parse(readFileSync(json, 'utf8')) : null;
  return { code, results, said };
}
