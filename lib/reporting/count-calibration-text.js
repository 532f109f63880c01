// The report of `calibrate --count` (results/count-calibration.js): per row its ratios in instructions,
// estimated cycles and timed replay, then each count's error against time and the verdict; then what bytes
// allocated and writes explain of the gaps (results/count-calibration-allocations.js). Pure.
import Table from 'cli-table3';
import { TARGET, ratioErrorPct } from '../results/count-calibration.js';
import { GAP_FLOOR_PCT } from '../results/count-calibration-allocations.js';

const fmtRatio = (x) => (x === null ? '-' : `${x.toFixed(2)} ×`);
const fmtErr = (x) => (x === null ? '-' : `${x.toFixed(1)} %`);
const fmtWeights = (w) => `L1 hit ${w.l1Hit}, LL hit ${w.llHit}, RAM access ${w.ramHit}, branch misprediction ${w.branchMiss}`;

function describeSummary(name, s) {
  if (s.medianPct === null) return `${name}: no row`;
  return `${name}: median ${fmtErr(s.medianPct)}, largest ${fmtErr(s.largestPct)} (${s.largest.bench} · ${s.largest.driver})`;
}

/** Pure: the text of a count calibration (calibrateCounts' result, and how many sittings timed it). */
export function renderCountCalibration(calibration, { sittings }) {
  const p = calibration.published;
  const published = `${p.l1Hit}/${p.llHit}/${p.ramHit}${p.branchMiss ? `/${p.branchMiss}` : ''}`;
  const table = new Table({
    head: ['bench', 'driver', 'against', 'instructions', `est. cycles (${published})`, 'est. cycles (held out)', `timed replay (${sittings} sitting${sittings === 1 ? '' : 's'})`, 'error: instr.', published, 'held out'],
    colAligns: ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of calibration.rows) {
    const spread = r.timeRatios.length > 1 ? ` (${Math.min(...r.timeRatios).toFixed(2)}–${Math.max(...r.timeRatios).toFixed(2)})` : '';
    table.push([r.bench, r.driver, r.reference, fmtRatio(r.instructionRatio), fmtRatio(r.publishedRatio), fmtRatio(r.heldOutRatio), `${fmtRatio(r.timeRatio)}${spread}`,
      fmtErr(ratioErrorPct(r.instructionRatio, r.timeRatio)), fmtErr(ratioErrorPct(r.publishedRatio, r.timeRatio)),
      r.heldOutRatio === null ? '-' : fmtErr(ratioErrorPct(r.heldOutRatio, r.timeRatio))]);
  }
  const s = calibration.summaries;
  const lines = [
    'How each count ranks the drivers against time: a ratio is the reference\'s figure over the row\'s (2.00 × = half the instructions, cycles or time);',
    'the error is |ln(count ratio) − ln(time ratio)|, in %. Held out: weights fitted on rows of neither the row\'s bench nor its driver.',
    table.toString(),
    describeSummary('instructions', s.instructions),
    describeSummary(`est. cycles, published weights (${fmtWeights(calibration.published)})`, s.published),
    describeSummary('est. cycles, weights fitted on every row (in sample, not a test)', s.fittedInSample),
    describeSummary('est. cycles, weights fitted without the row\'s bench', s.heldOutBench),
    describeSummary('est. cycles, weights fitted without the row\'s bench and driver', s.heldOut),
    calibration.fitted ? `weights fitted on every row: ${fmtWeights(calibration.fitted)}` : `no weights fitted: ${calibration.rows.length} row(s), fewer than the 3 weights`,
    calibration.met
      ? `verdict: estimated cycles track time here (held out: median ${fmtErr(s.heldOut.medianPct)} ≤ ${TARGET.medianPct} %, largest ${fmtErr(s.heldOut.largestPct)} ≤ ${TARGET.largestPct} %)`
      : `verdict: estimated cycles do not track time well enough here (target, held out: median ≤ ${TARGET.medianPct} %, largest ≤ ${TARGET.largestPct} %; `
        + `reached: ${s.heldOut.medianPct === null ? 'no held-out row' : `median ${fmtErr(s.heldOut.medianPct)}, largest ${fmtErr(s.heldOut.largestPct)}`}): quote a count as work done, and time as speed`,
  ];
  if (calibration.allocation) lines.push('', ...allocationLines(calibration));
  return `${lines.join('\n')}\n`;
}

const fmtInt = (x) => (x === null || x === undefined ? '-' : Math.round(x).toLocaleString('en-US'));
const fmtWrites = (x) => (x === null || x === undefined ? '-' : `${Number(x.toFixed(2))}`);
const fmtCost = (k) => (k === null ? '-' : `${Number(k.toPrecision(3))}`);
const named = (r) => `${r.bench} · ${r.driver}`;

/** Pure: how far a ratio lies from 1, in words: `1.62 × ${above}` or `1.11 × ${below}` (the inverse). */
const byHowMuch = (ratio, above, below) => (ratio >= 1 ? `${fmtRatio(ratio)} ${above}` : `${fmtRatio(1 / ratio)} ${below}`);

/** Pure: one row's judgment of allocation in a sentence: its gap, its bytes' lean, what the held-out k does. */
function judgmentLine(r) {
  const j = r.allocationJudgment;
  const gap = `${named(r)}: ${byHowMuch(r.unexplainedRatio, 'faster', 'slower')} against ${r.reference} than its instructions say`;
  const lean = `it allocates ${byHowMuch(r.allocationRatio / r.instructionRatio, 'less', 'more')} per instruction`;
  if (j.verdict === 'against') return `${gap}; ${Math.abs(j.leanPct) <= GAP_FLOOR_PCT ? `${lean}: level with ${r.reference}` : `${lean}: the other way`}: against`;
  if (j.verdict === 'leans') return `${gap}; ${lean}, the gap's way; no k fitted without ${r.bench}: leans`;
  const close = r.bytesCostToClose === null ? '; no k ≥ 0 closes it' : `; closing it takes k = ${fmtCost(r.bytesCostToClose)}`;
  return `${gap}; ${lean}, the gap's way; k = ${fmtCost(r.bytesCost)} fitted without ${r.bench}: error ${fmtErr(j.errorPct)} → ${fmtErr(j.heldOutErrorPct)}${close}: ${j.verdict}`;
}

/** Pure: the allocation part of the report: the table of bytes and writes, the judgments, the fit. */
function allocationLines(calibration) {
  const a = calibration.allocation;
  const table = new Table({
    head: ['bench', 'driver', 'against', 'time ÷ instr.', 'bytes/op', 'bytes', 'bytes ÷ instr.', 'writes/op', 'writes', 'k held out', 'instr. + k × bytes', 'error: instr.', 'instr. + bytes', 'allocation'],
    colAligns: ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of calibration.rows) {
    const j = r.allocationJudgment;
    table.push([r.bench, r.driver, r.reference, fmtRatio(r.unexplainedRatio), fmtInt(r.allocation?.bytes), fmtRatio(r.allocationRatio),
      r.allocationRatio === null ? '-' : fmtRatio(r.allocationRatio / r.instructionRatio), fmtWrites(r.allocation?.writes), fmtRatio(r.writesRatio),
      fmtCost(r.bytesCost), fmtRatio(r.bytesHeldOutRatio), j ? fmtErr(j.errorPct) : '-', j ? fmtErr(j.heldOutErrorPct) : '-', j ? j.verdict : 'no count']);
  }
  const rowOf = (n) => calibration.rows.find((r) => r.bench === n.bench && r.driver === n.driver);
  const names = (list) => (list.length ? list.map(named).join(', ') : 'none');
  const s = a.summaries;
  const held = s.bytesHeldOutBench;
  const instr = s.instructionsHeldOutBench;
  return [
    'What bytes allocated and writes explain (a --count allocations run of the same rows): time ÷ instr. is the gap instructions leave',
    '(above 1: the row is faster against its reference than its instructions say); bytes and writes are ratios as above (the reference\'s',
    'over the row\'s), bytes ÷ instr. their lean (above 1: fewer bytes per instruction than the reference); instr. + k × bytes: time ≈',
    'instructions + k × bytes allocated, with k (instructions a byte) fitted on the other benches\' rows.',
    `Allocation accounts for a gap beyond ±${GAP_FLOOR_PCT} % when its bytes per instruction lean the gap's way by more than ${GAP_FLOOR_PCT} % and the held-out k removes at least half of the error.`,
    table.toString(),
    `allocation accounts for: ${names(a.accounts)}; leaves: ${names(a.leaves)} (largest gap first); no gap within ±${GAP_FLOOR_PCT} %: ${names(a.noGap)}`,
    ...[...a.accounts, ...a.leaves].map((n) => `  ${judgmentLine(rowOf(n))}`),
    a.writes.differ.length
      ? `writes: ${a.writes.differ.map((n) => `${named(n)} (${rowOf(n).writesVerdict})`).join(', ')} write(s) differently per operation from their reference; ${a.writes.same.length} row(s) write as often`
      : 'writes: every row writes as often per operation as its reference: writes account for no gap between these drivers',
    a.fitted === null
      ? 'time ≈ instructions + k × bytes: no k fitted (no row with bytes allocated)'
      : `time ≈ instructions + k × bytes: k = ${fmtCost(a.fitted)} on every row (in sample, not a test: median ${fmtErr(s.bytesInSample.medianPct)}, largest ${fmtErr(s.bytesInSample.largestPct)}); `
        + (held.medianPct === null ? 'no held-out k (one bench only)'
          : `held out by bench, against instructions alone on the same rows: median ${fmtErr(instr.medianPct)} → ${fmtErr(held.medianPct)}, largest ${fmtErr(instr.largestPct)} → ${fmtErr(held.largestPct)}: `
            + `adding bytes allocated ${a.reduces ? 'reduces' : 'does not reduce'} the held-out error`),
  ];
}
