// What the benches add around the runner's matrix, read from the bench modules themselves (the bench
// contract, bench-contract.js): the options they declare (handed to them as ctx.options, and recorded
// in the results' settings when they ask), the matrix once per --concurrency level (scaling.js) and
// --rate (rates.js), then
// each bench's extra measurement (`probe`) once per run. No bench is named here.
import { BENCHES } from '../../../benchs/index.js';
import { forEachLevel } from './scaling.js';
import { forEachRate } from './rates.js';

/** Every option the benches declare: [{ flags, description, parse, key, default, record? }]. */
export const benchOptionSpecs = (benches = BENCHES) => [...new Set(benches.flatMap((b) => b.options ?? []))];

/** Options benches read from their context (`ctx.options`), from the command line's. */
export function benchOptions(opts = {}, benches = BENCHES) {
  return Object.fromEntries(benchOptionSpecs(benches).map((o) => [o.key, opts[o.key] ?? o.default]));
}

/** The distinct probes of some benches (two benches may share one), in the order of the bench list. */
export function probesOf(benches, registry = BENCHES) {
  const rank = (b) => (registry.includes(b) ? registry.indexOf(b) : registry.length);
  return [...new Set([...benches].sort((a, b) => rank(a) - rank(b)).map((b) => b.probe).filter(Boolean))];
}

const isAbort = (err, signal) => signal?.aborted || err?.name === 'AbortError';

/** Each probe of the run's benches, its figures (or its error) saved as results[probe.key]. */
async function runProbes(benches, results, probeContext) {
  const { signal } = probeContext;
  for (const probe of probesOf(benches)) {
    try {
      results[probe.key] = await probe.run(probeContext);
    } catch (err) {
      if (isAbort(err, signal)) throw signal?.reason ?? err;
      results[probe.key] = { error: err?.message ?? String(err) };
    }
  }
}

/**
 * Run the matrix once per concurrency level (`runLevel(levelSettings)` is the runner call), then the
 * benches' probes. Probe failures are recorded in the results, not thrown; an abort (Ctrl-C, server
 * lost) is.
 */
export async function runCatalogue({ opts, settings, results, benches, drivers, admin, target, context, signal, log = () => {} }, runLevel) {
  // Every registered bench's options (as before any bench runs), and those of a bench from elsewhere.
  context.options = { ...context.options, ...benchOptions(opts, [...new Set([...BENCHES, ...benches])]) };
  for (const o of benchOptionSpecs(benches)) if (o.record) results.settings[o.key] = context.options[o.key];

  await forEachLevel(settings, results, (levelSettings) => forEachRate(levelSettings, runLevel));

  await runProbes(benches, results, { drivers, target, admin, context, settings, signal, log });
}

/** Did a probe fail (its error, or a failed figure by its own `failed`)? n/a is not a failure. */
export function catalogueFailed(results, benches = BENCHES) {
  return probesOf(benches).some((probe) => {
    const figures = results?.[probe.key];
    return Boolean(figures && (figures.error || probe.failed?.(figures)));
  });
}
