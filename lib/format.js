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
