// What bytes allocated and socket writes explain of `calibrate --count`'s gaps between instructions and
// time: each calibrated row's figures from a --count allocations run of the same rows, a judgment per
// row by a stated rule, and a fitted test (time ≈ instructions + k × bytes, k held out per bench). Pure.
import { errorSummary, ratioErrorPct } from './count-calibration.js';

// A gap, or a lean of bytes or writes per instruction, within this (in %, as ratioErrorPct reads it)
// is none: the level at which the calibration's target says a count tracks time.
export const GAP_FLOOR_PCT = 5;
// The fitted variant's cost of a byte, in instructions: from none to where bytes alone set the ratio.
export const BYTES_COST_BOUNDS = Object.freeze([0, 1000]);

/** Pure: 100 × (ln a − ln b), signed: how far ratio a lies above ratio b, in %. */
const leanPct = (a, b) => (Math.log(a) - Math.log(b)) * 100;

/** Each row's `allocation` per operation from the allocations run (its own and its reference's), null if either is missing. */
export function withAllocations(rows, allocations) {
  const what = allocations.settings?.count?.what;
  if (what !== 'allocations') throw new Error(`the allocations run is a ${what ?? 'timed'} run, not a --count allocations one`);
  const counted = (bench, driver) => {
    const row = allocations.benches.find((b) => b.name === bench)?.results.find((r) => r.driver === driver && r.ok);
    return typeof row?.count?.perOp === 'number' ? row.count : null;
  };
  return rows.map((r) => {
    const own = counted(r.bench, r.driver);
    const ref = counted(r.bench, r.reference);
    const allocation = own && ref
      ? { bytes: own.perOp, referenceBytes: ref.perOp, writes: own.events?.writes ?? null, referenceWrites: ref.events?.writes ?? null }
      : null;
    return { ...r, allocation };
  });
}

/** Pure: a row's ratio under time ≈ instructions + k × bytes allocated: the reference's cost over the row's. */
export const bytesCostRatio = (row, k) => (row.referenceEvents.instructions + k * row.allocation.referenceBytes)
  / (row.events.instructions + k * row.allocation.bytes);

/** Pure: the k at which the row's time ratio is met exactly, or null when no k ≥ 0 does. */
export function bytesCostToClose(row) {
  const { instructions: ir } = row.referenceEvents;
  const { instructions: i } = row.events;
  const { referenceBytes: br, bytes: b } = row.allocation;
  const t = row.timeRatio;
  const k = (ir - t * i) / (t * b - br);
  return Number.isFinite(k) && k >= 0 ? Number(k.toPrecision(4)) : null;
}

/** Pure: the sum of squared differences between the rows' ln ratios under cost k and in time. */
export function bytesCostLoss(rows, k) {
  let sum = 0;
  for (const r of rows) sum += (Math.log(bytesCostRatio(r, k)) - Math.log(r.timeRatio)) ** 2;
  return sum;
}

/** The best-fitting k within BYTES_COST_BOUNDS (4 digits; null with no row): a decade grid, then golden section. */
export function fitBytesCost(rows) {
  if (!rows.length) return null;
  const [lo, hi] = BYTES_COST_BOUNDS;
  const grid = [lo];
  for (let e = -3; e <= Math.log10(hi) + 1e-9; e += 0.1) grid.push(10 ** e);
  let at = 0;
  for (let i = 1; i < grid.length; i++) if (bytesCostLoss(rows, grid[i]) < bytesCostLoss(rows, grid[at]) - 1e-15) at = i;
  let a = grid[Math.max(at - 1, 0)];
  let b = grid[Math.min(at + 1, grid.length - 1)];
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 100 && b - a > 1e-9; i++) {
    const c = b - g * (b - a);
    const d = a + g * (b - a);
    if (bytesCostLoss(rows, c) <= bytesCostLoss(rows, d)) b = d; else a = c;
  }
  const k = (a + b) / 2;
  const best = bytesCostLoss(rows, k) < bytesCostLoss(rows, grid[at]) ? k : grid[at];
  return best === 0 ? 0 : Number(best.toPrecision(4));
}

/** Does allocation account for a row's gap? The rule: docs/replay.md#what-allocation-and-writes-explain. */
export function judgeAllocation({ instructionRatio, timeRatio, allocationRatio, bytesHeldOutRatio = null }) {
  const gapPct = leanPct(timeRatio, instructionRatio);
  const lean = leanPct(allocationRatio, instructionRatio);
  const errorPct = Math.abs(gapPct);
  const heldOutErrorPct = bytesHeldOutRatio === null ? null : ratioErrorPct(bytesHeldOutRatio, timeRatio);
  const out = { gapPct, leanPct: lean, errorPct, heldOutErrorPct };
  if (errorPct <= GAP_FLOOR_PCT) return { verdict: 'no gap', ...out };
  if (Math.sign(lean) !== Math.sign(gapPct) || Math.abs(lean) <= GAP_FLOOR_PCT) return { verdict: 'against', ...out };
  if (heldOutErrorPct === null) return { verdict: 'leans', ...out };
  return { verdict: heldOutErrorPct <= errorPct / 2 ? 'accounts' : 'too little', ...out };
}

/** The same question of writes, without a fit (a count of calls, not a cost). */
export function judgeWrites({ instructionRatio, timeRatio, writesRatio }) {
  const gapPct = leanPct(timeRatio, instructionRatio);
  if (Math.abs(gapPct) <= GAP_FLOOR_PCT) return 'no gap';
  if (Math.abs(Math.log(writesRatio)) <= Math.log(1.01)) return 'same';
  const lean = leanPct(writesRatio, instructionRatio);
  return Math.sign(lean) === Math.sign(gapPct) && Math.abs(lean) > GAP_FLOOR_PCT ? 'leans' : 'against';
}

const nameOf = (r) => ({ bench: r.bench, driver: r.driver });

/** Each row given its ratios, held-out k and judgments (nulls without allocation), and the whole's fit. */
export function explainByAllocation(rows) {
  const counted = rows.filter((r) => r.allocation);
  const fitted = fitBytesCost(counted);
  const benchCost = new Map([...new Set(counted.map((r) => r.bench))].map((b) => [b, fitBytesCost(counted.filter((r) => r.bench !== b))]));
  const out = rows.map((r) => {
    if (!r.allocation) {
      return { ...r, allocationRatio: null, writesRatio: null, unexplainedRatio: r.timeRatio / r.instructionRatio, bytesCost: null, bytesHeldOutRatio: null, bytesCostToClose: null, allocationJudgment: null, writesVerdict: null };
    }
    const a = r.allocation;
    const allocationRatio = a.referenceBytes / a.bytes;
    const writesRatio = a.writes && a.referenceWrites ? a.referenceWrites / a.writes : null;
    const bytesCost = benchCost.get(r.bench) ?? null;
    const bytesHeldOutRatio = bytesCost === null ? null : bytesCostRatio(r, bytesCost);
    return {
      ...r, allocationRatio, writesRatio, unexplainedRatio: r.timeRatio / r.instructionRatio, bytesCost, bytesHeldOutRatio, bytesCostToClose: bytesCostToClose(r),
      allocationJudgment: judgeAllocation({ instructionRatio: r.instructionRatio, timeRatio: r.timeRatio, allocationRatio, bytesHeldOutRatio }),
      writesVerdict: writesRatio === null ? null : judgeWrites({ instructionRatio: r.instructionRatio, timeRatio: r.timeRatio, writesRatio }),
    };
  });
  const judged = out.filter((r) => r.allocationJudgment);
  const held = judged.filter((r) => r.bytesHeldOutRatio !== null);
  const summaries = {
    instructions: errorSummary(judged, (r) => ratioErrorPct(r.instructionRatio, r.timeRatio)),
    bytesInSample: fitted === null ? errorSummary([], null) : errorSummary(judged, (r) => ratioErrorPct(bytesCostRatio(r, fitted), r.timeRatio)),
    bytesHeldOutBench: errorSummary(held, (r) => ratioErrorPct(r.bytesHeldOutRatio, r.timeRatio)),
    instructionsHeldOutBench: errorSummary(held, (r) => ratioErrorPct(r.instructionRatio, r.timeRatio)),
  };
  const h = summaries.bytesHeldOutBench;
  const i = summaries.instructionsHeldOutBench;
  const reduces = h.medianPct !== null && h.medianPct < i.medianPct && h.largestPct < i.largestPct;
  const gaps = judged.filter((r) => r.allocationJudgment.verdict !== 'no gap')
    .sort((x, y) => y.allocationJudgment.errorPct - x.allocationJudgment.errorPct);
  return {
    rows: out,
    allocation: {
      fitted, summaries, reduces,
      accounts: gaps.filter((r) => r.allocationJudgment.verdict === 'accounts').map(nameOf),
      leaves: gaps.filter((r) => r.allocationJudgment.verdict !== 'accounts').map(nameOf),
      noGap: judged.filter((r) => r.allocationJudgment.verdict === 'no gap').map(nameOf),
      writes: {
        same: judged.filter((r) => r.writesRatio !== null && Math.abs(Math.log(r.writesRatio)) <= Math.log(1.01)).map(nameOf),
        differ: judged.filter((r) => r.writesRatio !== null && Math.abs(Math.log(r.writesRatio)) > Math.log(1.01)).map(nameOf),
      },
    },
  };
}
