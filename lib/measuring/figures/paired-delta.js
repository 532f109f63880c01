// A driver's paired Δ against the reference in the same rounds, its interval, the run's resolution
// and the judgement of significance; the change of a paired ratio between two runs. Pure: no I/O, no clocks.
import { deltaPct, logRatioPct, mannWhitneyU, pctLogRatio, mean, median, medianConfidenceInterval, normalQuantile, round1, variance } from '../../common/stats.js';

// The confidence a run's Δ intervals hold with, together: a run reports k Δs at once (benches ×
// drivers besides the reference), and k intervals at 95 % each leave out their true Δ about k in 20
// times between them, so a run of identical drivers would call about one Δ in 20 significant.
export const JOINT_LEVEL = 0.95;

/** The level each of `comparisons` intervals is taken at, so that they all hold together at `joint` (Bonferroni). */
export function eachIntervalLevel(comparisons, joint = JOINT_LEVEL) {
  return 1 - (1 - joint) / Math.max(1, comparisons);
}

// A process's rounds count towards the spread between processes only when it gave this many.
const MIN_ROUNDS_PER_PROCESS = 3;

/**
 * Pure: how much a row's processes differ from each other, beyond what their rounds' own scatter
 * explains: `values` (log ratios of the rounds) grouped by `groupOf` (the process each round ran
 * in). Returns { variance, processes }: the variance between the processes' medians less the part
 * their rounds' scatter gives a median of that many rounds (robust: the scatter is the residuals'
 * MAD), at least 0; with fewer than two processes of MIN_ROUNDS_PER_PROCESS rounds, 0.
 */
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

/**
 * The paired comparison of a row with its reference, window by window: in each round both were
 * measured, ratio = row ops/s / reference ops/s. Δ is the median ratio as a change in %. Its
 * interval is the distribution-free interval of that median at `level`, widened by the draw of
 * processes: a row measured in a few processes carries their few-per-cent differences (docs/measuring.md, "How
 * to read the numbers"), which no number of rounds averages out. When the rounds say which process
 * they ran in, each row's spread between processes (betweenProcessVariance of the log ratios,
 * grouped by the row's processes) over its number of processes is added to the interval's halves in
 * quadrature, at the normal quantile of `level`. `sameProcesses`: both rows ran in the same
 * processes (calibrate), whose spread then counts once. Null interval when too few pairs for it
 * (under 6 at 95 %); `halfWidthPct` is half the interval's width relative to the median ratio: how
 * precisely this row's Δ is known; `processSdPct`, the standard deviation (in % of the ratio) the
 * draw of processes gives the Δ.
 * @param {Array<{round, opsPerSec, process?}>} rounds
 * @param {Array<{round, opsPerSec, process?}>} refRounds
 */
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

// How far a driver's paired ratio follows the host's own speed between runs, per unit of the host's
// log change: the larger of two sittings' figures, kept as a bound of either sign
// (docs/history/2026-11-25-compare-anchor.md).
export const HOST_FOLLOW = 0.12;

/**
 * Pure: how a row's paired Δ against the same reference changed from one run to another (pairedDelta
 * of each run: { deltaPct, ci }), as a change in %: the new run's median ratio over the base run's.
 * Its interval combines the two runs' intervals in quadrature on the log scale (the new run's lower
 * half with the base's upper, and the other way round), so it holds at their level when the two
 * runs' errors are independent. `hostShift` (the reference's own ops/s new/base, optional) widens it
 * by HOST_FOLLOW × |ln hostShift| in quadrature, since drivers do not all slow alike with the host;
 * `hostTermPct` is that term. Null interval when either run has none.
 */
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

/**
 * Pure: did a row's paired ratio move during its bench? The first half of its rounds (by round
 * number) against the second: their median ratios as changes in % against the reference, and the
 * Mann-Whitney U test's p on the two halves' log ratios. Each half holds the same share of every
 * process (processSchedule), so a process's draw does not tell one half from the other; a driver still
 * warming up, or a host that changed speed for one driver more than the other, does. `movePct`:
 * the second half's median ratio against the first's, in %. Null with fewer than 2 × `minPairs` pairs.
 */
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

/**
 * What a run resolves: the median, over its paired rows, of their Δ intervals' relative half-width
 * (the same for an A/A run and a normal one), with the run's number of Δs and the level each interval
 * was taken at. Null when no row has an interval.
 */
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

/**
 * The harness's one rule for "a real difference" between two rows of a run: the paired Δ's interval
 * (one of the run's intervals that hold together at 95 %) excludes 0, and |Δ| is beyond the run's
 * resolution.
 */
export function pairedSignificant(delta, resolutionPct = 0) {
  if (!delta?.ci) return false;
  const excludesZero = delta.ci[0] > 0 || delta.ci[1] < 0;
  return excludesZero && Math.abs(delta.deltaPct) > (resolutionPct ?? 0);
}
