// A driver's paired Δ against the reference in the same rounds, its interval, the run's resolution
// and the judgement of significance; the change of a paired ratio between two runs. Pure: no I/O, no clocks.
import { deltaPct, logRatioPct, mannWhitneyU, pctLogRatio, mean, median, medianConfidenceInterval, normalQuantile, round1, variance } from '../../common/stats.js';

// The level a run's Δ intervals hold at together (docs/measuring.md#how-to-read-the-numbers).
export const JOINT_LEVEL = 0.95;

/** The level each of `comparisons` intervals is taken at, so that they all hold together at `joint` (Bonferroni). */
export function eachIntervalLevel(comparisons, joint = JOINT_LEVEL) {
  return 1 - (1 - joint) / Math.max(1, comparisons);
}

const MIN_ROUNDS_PER_PROCESS = 3;

/** Pure: the variance between a row's processes' medians beyond what their rounds' scatter (MAD) explains. */
export function betweenProcessVariance(values, groupOf) {
  const groups = new Map();
  values.forEach((v, i) => {
    const g = groupOf[i];
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(v);
  });
  const kept = [...groups.values()].filter((g) => g.length >= MIN_ROUNDS_PER_PROCESS);
  if (kept.length < 2) return { variance: 0, processes: groups.size };
  const medians = kept.map(median);
  const observed = variance(medians);
  const scatter = 1.4826 * median(kept.flatMap((g, i) => g.map((v) => Math.abs(v - medians[i]))));
  const roundsPerProcess = mean(kept.map((g) => g.length));
  // The variance of a median of n draws is about pi/2 times the mean's.
  const fromScatter = ((Math.PI / 2) * scatter * scatter) / roundsPerProcess;
  return { variance: Math.max(0, observed - fromScatter), processes: groups.size };
}

/** The rounds both rows were measured in: each round's log ratio (row / reference) and the processes it ran in. */
function pairedLogRatios(rounds, refRounds) {
  const ref = new Map((refRounds ?? []).map((r) => [r.round, r]));
  return (rounds ?? []).filter((r) => r.opsPerSec > 0 && ref.get(r.round)?.opsPerSec > 0)
    .map((r) => ({ round: r.round, log: Math.log(r.opsPerSec / ref.get(r.round).opsPerSec), process: r.process, refProcess: ref.get(r.round).process }));
}

/** The median round ratio, its interval widened by the draw of processes (docs/measuring.md#how-to-read-the-numbers). */
export function pairedDelta(rounds, refRounds, level = 0.95, { sameProcesses = false } = {}) {
  const pairs = pairedLogRatios(rounds, refRounds);
  if (pairs.length === 0) return null;
  const logs = pairs.map((p) => p.log);
  const mid = median(logs);
  const roundsCi = medianConfidenceInterval(logs, level);
  const spreadOf = (key) => {
    if (pairs.some((p) => p[key] === undefined)) return 0;
    const { variance: v, processes } = betweenProcessVariance(logs, pairs.map((p) => p[key]));
    return v / processes;
  };
  const processVariance = spreadOf('process') + (sameProcesses ? 0 : spreadOf('refProcess'));
  const widen = normalQuantile(1 - (1 - level) / 2) * Math.sqrt(processVariance);
  const ci = roundsCi && [mid - Math.hypot(mid - roundsCi[0], widen), mid + Math.hypot(roundsCi[1] - mid, widen)];
  return {
    deltaPct: logRatioPct(mid),
    ci: ci && [logRatioPct(ci[0]), logRatioPct(ci[1])],
    pairs: pairs.length,
    halfWidthPct: ci ? ((Math.exp(ci[1]) - Math.exp(ci[0])) / 2 / Math.exp(mid)) * 100 : null,
    processSdPct: Math.sqrt(processVariance) * 100,
  };
}

// How far a paired ratio follows the host's speed between runs, per unit of its log change: a bound
// of either sign (docs/history/2026-11-25-compare-anchor.md).
export const HOST_FOLLOW = 0.12;

/** Pure: a paired Δ's change between runs, the intervals in quadrature, widened by HOST_FOLLOW × |ln hostShift| (reference new/base). */
export function pairedChangeBetweenRuns(basePaired, newPaired, { hostShift = 1 } = {}) {
  const lb = pctLogRatio(basePaired.deltaPct);
  const ln = pctLogRatio(newPaired.deltaPct);
  const mid = ln - lb;
  const host = hostShift > 0 && Number.isFinite(hostShift) ? HOST_FOLLOW * Math.abs(Math.log(hostShift)) : 0;
  const hostTermPct = logRatioPct(host);
  if (!basePaired.ci || !newPaired.ci) return { deltaPct: logRatioPct(mid), ci: null, hostTermPct };
  const [bLo, bHi] = basePaired.ci.map(pctLogRatio);
  const [nLo, nHi] = newPaired.ci.map(pctLogRatio);
  return {
    deltaPct: logRatioPct(mid),
    ci: [logRatioPct(mid - Math.hypot(ln - nLo, bHi - lb, host)), logRatioPct(mid + Math.hypot(nHi - ln, lb - bLo, host))],
    hostTermPct,
  };
}

/** Pure: did a paired ratio move during its bench? Its halves by round number (each the same share of every process). */
export function pairedDrift(rounds, refRounds, { minPairs = 12 } = {}) {
  const pairs = pairedLogRatios(rounds, refRounds).sort((a, b) => a.round - b.round);
  if (pairs.length < 2 * minPairs) return null;
  const half = Math.floor(pairs.length / 2);
  const first = pairs.slice(0, half).map((p) => p.log);
  const second = pairs.slice(half).map((p) => p.log);
  return {
    firstPct: logRatioPct(median(first)),
    secondPct: logRatioPct(median(second)),
    movePct: logRatioPct(median(second) - median(first)),
    p: mannWhitneyU(first, second).p,
  };
}

/** What a run resolves: the median of its paired rows' relative interval half-widths. */
export function pairedResolution(deltas, { level = 0.95, comparisons = deltas.length } = {}) {
  const widths = deltas.map((d) => d?.halfWidthPct).filter(Number.isFinite);
  if (widths.length === 0) return null;
  return {
    pct: round1(median(widths)),
    rows: widths.length,
    largestPct: round1(Math.max(...widths)),
    comparisons,
    jointLevel: JOINT_LEVEL,
    eachLevel: level,
  };
}

/** The one rule for "a real difference": the Δ's interval excludes 0 and |Δ| is beyond the run's resolution. */
export function pairedSignificant(delta, resolutionPct = 0) {
  if (!delta?.ci) return false;
  const excludesZero = delta.ci[0] > 0 || delta.ci[1] < 0;
  return excludesZero && Math.abs(delta.deltaPct) > (resolutionPct ?? 0);
}
