// What the benches add around their rows (bench-contract.js): the options they declare and each
// bench's `probe`, run once after the run's levels. No bench is named here.
import { BENCHES } from '../../../benchs/index.js';

/** Every option the benches declare: [{ flags, description, parse, key, default, record? }]. */
export const benchOptionSpecs = (benches = BENCHES) => [...new Set(benches.flatMap((b) => b.options ?? []))];

export function benchOptions(given = {}, benches = BENCHES) {
  return Object.fromEntries(benchOptionSpecs(benches).map((o) => [o.key, given[o.key] ?? o.default]));
}

/** The distinct probes of some benches (two benches may share one), in the order of the bench list. */
export function probesOf(benches, registry = BENCHES) {
  const rank = (b) => (registry.includes(b) ? registry.indexOf(b) : registry.length);
  return [...new Set([...benches].sort((a, b) => rank(a) - rank(b)).map((b) => b.probe).filter(Boolean))];
}

const isAbort = (err, signal) => signal?.aborted || err?.name === 'AbortError';

/** A probe's failure is recorded ({ error }), not thrown; an abort is. */
export async function runProbes(benches, probeContext) {
  const { signal } = probeContext;
  const probes = {};
  for (const probe of probesOf(benches)) {
    try {
      probes[probe.key] = await probe.run(probeContext);
    } catch (err) {
      if (isAbort(err, signal)) throw signal?.reason ?? err;
      probes[probe.key] = { error: err?.message ?? String(err) };
    }
  }
  return probes;
}

/** Did a probe fail (its error, or a failed figure by its own `failed`)? n/a is not a failure. */
export function probesFailed(results, benches = BENCHES) {
  return probesOf(benches).some((probe) => {
    const figures = results?.[probe.key];
    return Boolean(figures && (figures.error || probe.failed?.(figures)));
  });
}
