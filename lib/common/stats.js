// Pure statistics over plain numbers. No I/O, no clocks.

export function sum(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

export function mean(xs) {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Unbiased sample variance (n - 1). */
export function variance(xs) {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return s / (xs.length - 1);
}

export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return percentileOfSorted(s, 50);
}

/** The mean of `xs` without its lowest and highest `trim` share (by default 1 % each). */
export function trimmedMean(xs, trim = 0.01) {
  const s = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(s.length * trim);
  const kept = s.slice(cut, s.length - cut);
  return sum(kept) / kept.length;
}

/** Percentile by linear interpolation between closest ranks; `sorted` ascending. */
export function percentileOfSorted(sorted, p) {
  const n = sorted.length;
  if (n === 0) return NaN;
  if (n === 1) return sorted[0];
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** Nearest-rank percentile, null when empty: an observed value, as HdrHistogram's (so a --rate window's p50) are. */
export function nearestRankOfSorted(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// Two-sided Student t critical values at 95 % confidence, by degrees of freedom.
const T95 = [NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export function tCritical95(df) {
  if (!(df >= 1)) return NaN;
  if (df < T95.length) return T95[Math.floor(df)];
  if (df < 60) return 2.0;
  if (df < 120) return 1.98;
  return 1.96;
}

/** Relative margin of error (%) of the mean at 95 % confidence. */
export function relativeMarginOfError(xs) {
  if (xs.length < 2) return NaN;
  const m = mean(xs);
  const sem = Math.sqrt(variance(xs) / xs.length);
  return (tCritical95(xs.length - 1) * sem / m) * 100;
}

/** Rounded to one decimal, as figures are kept in results. */
export const round1 = (x) => Math.round(x * 10) / 10;

export const round3 = (x) => Math.round(x * 1000) / 1000;

/** Latency summary in the unit given (the harness records microseconds). */
export function latencySummary(values) {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return null;
  return {
    count: sorted.length,
    p50: round1(percentileOfSorted(sorted, 50)),
    p90: round1(percentileOfSorted(sorted, 90)),
    p99: round1(percentileOfSorted(sorted, 99)),
    max: round1(sorted[sorted.length - 1]),
  };
}

/** Percentage change from `base` to `value`; null when either is missing. */
export function deltaPct(value, base) {
  if (!(value > 0) || !(base > 0)) return null;
  return ((value - base) / base) * 100;
}

/** A change held as a log ratio (the mean or median of log(new / old)), as a percentage: + is larger. */
export const logRatioPct = (log) => (Math.exp(log) - 1) * 100;

export const pctLogRatio = (pct) => Math.log1p(pct / 100);

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf), accurate to ~1e-7. */
export function normalCdf(z) {
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** Two-sided Mann-Whitney U (normal approximation, tie and continuity corrections); p NaN under 2 values a side. */
export function mannWhitneyU(a, b) {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 < 2 || n2 < 2) return { u: NaN, z: NaN, p: NaN };
  const all = [];
  for (const x of a) all.push([x, 0]);
  for (const x of b) all.push([x, 1]);
  all.sort((x, y) => x[0] - y[0]);
  const n = n1 + n2;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1][0] === all[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    const t = j - i + 1;
    if (t > 1) tieTerm += t ** 3 - t;
    for (let k = i; k <= j; k++) if (all[k][1] === 0) rankSumA += rank;
    i = j + 1;
  }
  const u1 = rankSumA - (n1 * (n1 + 1)) / 2;
  const u = Math.min(u1, n1 * n2 - u1);
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt((n1 * n2 / 12) * ((n + 1) - tieTerm / (n * (n - 1))));
  if (sigma === 0) return { u, z: 0, p: 1 };
  const z = (Math.abs(u1 - mu) - 0.5) / sigma;
  const p = Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
  return { u, z: u1 > mu ? z : -z, p };
}

/** log C(n, k), for binomial tails without overflow. */
function logChoose(n, k) {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Distribution-free CI of the median (order statistics); null when n is too small for the level (n < 6 at 95 %). */
export function medianConfidenceInterval(xs, level = 0.95) {
  const sorted = [...xs].sort((a, b) => a - b);
  const n = sorted.length;
  const tail = (1 - level) / 2;
  let cumulative = 0;
  let k = 0; // P(B < k+1) = cumulative after adding P(B = k)
  while (k < n) {
    const next = cumulative + Math.exp(logChoose(n, k) - n * Math.LN2);
    if (next > tail) break;
    cumulative = next;
    k++;
  }
  if (k === 0) return null;
  return [sorted[k - 1], sorted[n - k]];
}

/** Pure: the z with normalCdf(z) = p (0 < p < 1), by bisection. */
export function normalQuantile(p) {
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
