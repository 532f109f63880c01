// Small pure number formatters shared by the renderers, the benches' own sections and the warnings.
export const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');

export const fmtOps = (n) => {
  if (!Number.isFinite(n)) return '-';
  if (n >= 100) return fmtInt(n);
  return n.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
};

export const fmtPct = (n, digits = 1) => (Number.isFinite(n) ? `${n.toFixed(digits)} %` : '-');

/** An interval's bound in %: more than one decimal where one would round it to 0.0 (reads as touching 0). */
export const fmtBound = (n) => {
  if (!Number.isFinite(n) || n === 0 || Math.abs(n) >= 0.05) return fmtPct(n);
  return fmtPct(n, Math.min(6, -Math.floor(Math.log10(Math.abs(n)))));
};

export const fmtSignedPct = (n, digits = 1) => {
  if (!Number.isFinite(n)) return '-';
  const s = n.toFixed(digits);
  return `${n > 0 ? '+' : ''}${s} %`;
};

export const fmtUs = (n) => {
  if (!Number.isFinite(n)) return '-';
  return n >= 100 ? fmtInt(n) : n.toFixed(1);
};

/** A confidence level as a percentage, with the digits it needs: 0.95 -> "95 %", 0.99643 -> "99.64 %". */
export const fmtLevel = (level) => `${(level * 100).toFixed(2).replace(/\.?0+$/, '')} %`;
