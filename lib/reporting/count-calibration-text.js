// The report of `calibrate --count` (results/count-calibration.js): per row its ratios in instructions,
// estimated cycles and timed replay, then each count's error against time and the verdict. Pure.
import Table from 'cli-table3';
import { TARGET, ratioErrorPct } from '../results/count-calibration.js';

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
  return `${lines.join('\n')}\n`;
}
