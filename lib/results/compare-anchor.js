// The anchor of a comparison: a driver whose code is the same in both runs. Each run's rows are paired with it
// window by window, so the change of a row's ratio to it between the runs cancels the host's speed
// (as far as the drivers scale alike), where the change of the row's own ops/s does not.

/** Everything a results file records of a driver that says which code and options ran. */
const identity = (d) => JSON.stringify([d.package, d.version, d.via, d.source, d.git?.commit, d.options, d.variant,
  d.runtime && !d.runtime.harness ? `${d.runtime.kind} ${d.runtime.version}` : null].map((x) => x ?? null));
/** Code that can change under the same label and version: a local checkout, an adapter module. */
const mayChangeInPlace = (d) => Boolean(d.local) || /^(\.{0,2}\/)|\.m?js$|@file:/.test(d.source ?? '');

/** The drivers of the new run that ran the same code in the base run, in the new run's order. */
export function unchangedDrivers(base, next) {
  const before = new Map((base.drivers ?? []).map((d) => [d.name, d]));
  return (next.drivers ?? [])
    .filter((d) => before.has(d.name) && identity(before.get(d.name)) === identity(d) && !mayChangeInPlace(d))
    .map((d) => d.name);
}

/** The anchors to try in each bench, best first: `anchor` if given ('none': no anchor), else the runs' baselines, then any unchanged driver. */
export function anchorCandidates(base, next, anchor) {
  if (anchor === 'none') return [];
  if (anchor) return [anchor];
  const unchanged = unchangedDrivers(base, next);
  return [...new Set([next.settings?.baseline, base.settings?.baseline, ...unchanged])].filter((n) => unchanged.includes(n));
}
