// Small pure number formatters shared by the renderers.
export const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');

export const fmtOps = (n) => {
  if (!Number.isFinite(n)) return '-';
  if (n >= 100) return fmtInt(n);
  return n.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
};

export const fmtPct = (n, digits = 1) => (Number.isFinite(n) ? `${n.toFixed(digits)} %` : '-');

export const fmtSignedPct = (n, digits = 1) => {
  if (!Number.isFinite(n)) return '-';
  const s = n.toFixed(digits);
  return `${n > 0 ? '+' : ''}${s} %`;
};

export const fmtUs = (n) => {
  if (!Number.isFinite(n)) return '-';
  return n >= 100 ? fmtInt(n) : n.toFixed(1);
};

/** What a run can resolve (results.resolution), as one sentence without a leading label. */
export function describeResolution(res) {
  return `the same cell moved by a median of ${fmtPct(res.medianSpreadPct)} between rounds in this run `
    + `(largest ${fmtPct(res.maxSpreadPct)}, ${res.cells} cells): differences smaller than that may be the host drifting rather than the drivers`;
}

const fmtMs = (ms) => (ms === null || ms === undefined ? '-' : `${ms} ms`);

/** The run's network (settings.network) in a phrase: what was asked and what the proxy measured adding over the run. */
export function describeNetwork(network) {
  if (!network) return 'not recorded';
  if (typeof network.rttMs !== 'number') return JSON.stringify(network);
  if (network.rttMs === 0) return 'loopback';
  const asked = `+${network.rttMs} ms RTT`;
  if ('addedRttP50Ms' in network) return `${asked} (added over the run: p50 ${fmtMs(network.addedRttP50Ms)}, p99 ${fmtMs(network.addedRttP99Ms)})`;
  if ('measuredAddedMs' in network) return `${asked} (measured +${network.measuredAddedMs} ms before the run)`; // results of older releases
  return asked;
}
