// `calibrate --count cycles`: a cycles count, an allocations count and --sittings timed replay runs of
// the same rows, then every row's ratios and errors (results/count-calibration.js) in a calibration file
// (docs/replay.md, "Instructions, cycles or time: `calibrate --count cycles`").
import { join, resolve } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { EXIT, usageError } from '../../common/errors.js';
import { runBenchmark } from '../../run.js';
import { assertWritableDir, readResults, resultsFileName } from '../../results/file.js';
import { calibrateCounts, calibrationInputs, TARGET } from '../../results/count-calibration.js';
import { explainByAllocation, withAllocations } from '../../results/count-calibration-allocations.js';
import { renderCountCalibration } from '../../reporting/count-calibration-text.js';

export const DEFAULT_SITTINGS = 3;

/** One measuring run, its table sent to stderr. */
async function subRun({ benches, opts, env, stderr, signal, command }) {
  let results = null;
  const variant = { exitCode: (r, code) => { results = r; return code; } };
  const code = await runBenchmark({ benches, opts, env, stdout: stderr, stderr, signal, variant, command });
  return { results, file: results ? resolve(join(opts.out, resultsFileName(results))) : null, code };
}

/** A run given by --counts, --allocations or --timed: `counted`, the counter it must count with, or null for a timed run. */
function readRun(file, { counted }) {
  const results = readResults(file);
  if (!results.settings.replay) throw usageError(`${file} is not a --replay run: calibrate --count compares replayed rows only`);
  const flag = counted === 'allocations' ? '--allocations' : '--counts';
  if (counted && results.settings.count?.what !== counted) throw usageError(`${flag} ${file}: not a --count ${counted} run (it ${results.settings.count ? `counts ${results.settings.count.what}` : 'is timed'})`);
  if (!counted && results.settings.count) throw usageError(`--timed ${file}: a --count run, not a timed one`);
  return { results, file: resolve(file) };
}

/** Pure: the calibration file's content: what was calibrated against what, and every figure. */
export const calibrationRecord = ({ calibration, countsFile, allocationsFile = null, timedFiles, createdAt }) => ({
  tool: 'mysql-driver-bench', kind: 'count-calibration', createdAt, target: { ...TARGET }, counts: countsFile, allocations: allocationsFile, timed: timedFiles,
  published: calibration.published, fitted: calibration.fitted, summaries: calibration.summaries, met: calibration.met,
  allocation: calibration.allocation ?? null,
  rows: calibration.rows.map((r) => ({
    bench: r.bench, driver: r.driver, reference: r.reference, events: r.events, referenceEvents: r.referenceEvents,
    instructionRatio: r.instructionRatio, publishedRatio: r.publishedRatio, fittedRatio: r.fittedRatio,
    heldOutRatio: r.heldOutRatio, heldOutWeights: r.heldOutWeights, heldOutBenchRatio: r.heldOutBenchRatio, timeRatios: r.timeRatios, timeRatio: r.timeRatio,
    ...(calibration.allocation ? {
      allocation: r.allocation, allocationRatio: r.allocationRatio, writesRatio: r.writesRatio, unexplainedRatio: r.unexplainedRatio,
      bytesCost: r.bytesCost, bytesHeldOutRatio: r.bytesHeldOutRatio, bytesCostToClose: r.bytesCostToClose,
      allocationJudgment: r.allocationJudgment, writesVerdict: r.writesVerdict,
    } : {}),
  })),
});

export async function calibrateCount({ benches, opts, env, stdout, stderr, signal, command }) {
  if (opts.count !== 'cycles') throw usageError(`calibrate --count ${opts.count}: calibrate counts with cycles, whose count reads instructions too, in the same windows`, 'run calibrate --count cycles');
  assertWritableDir(opts.out);
  const sittings = opts.sittings ?? DEFAULT_SITTINGS;
  const runOpts = { ...opts, replay: true, json: undefined, concurrency: 1 };
  const log = (line) => { if (!opts.quiet) stderr.write(`${line}\n`); };
  let counts;
  if (opts.counts) counts = readRun(opts.counts, { counted: 'cycles' });
  else {
    log('calibrate --count: the cycles count of every row first');
    const { results, file, code } = await subRun({ benches, opts: { ...runOpts, count: 'cycles' }, env, stderr, signal, command });
    if (!results?.complete || code !== EXIT.OK) return code === EXIT.OK ? EXIT.ROWS_FAILED : code;
    counts = { results, file };
  }
  // Runs all given (--counts and --timed) without --allocations are calibrated with no allocation columns.
  let allocations = null;
  if (opts.allocations) allocations = readRun(opts.allocations, { counted: 'allocations' });
  else if (!(opts.counts && opts.timed)) {
    log('calibrate --count: the allocations count of every row');
    const { results, file, code } = await subRun({ benches, opts: { ...runOpts, count: 'allocations' }, env, stderr, signal, command });
    if (!results?.complete || code !== EXIT.OK) return code === EXIT.OK ? EXIT.ROWS_FAILED : code;
    allocations = { results, file };
  }
  const timed = [];
  if (opts.timed) for (const file of opts.timed) timed.push(readRun(file, { counted: false }));
  else {
    for (let s = 1; s <= sittings; s++) {
      log(`calibrate --count: timed replay, sitting ${s} of ${sittings}`);
      const { results, file, code } = await subRun({ benches, opts: { ...runOpts, count: undefined }, env, stderr, signal, command });
      if (!results?.complete || code !== EXIT.OK) return code === EXIT.OK ? EXIT.ROWS_FAILED : code;
      timed.push({ results, file });
    }
  }
  let rows;
  try {
    rows = calibrationInputs(counts.results, timed.map((t) => t.results));
    if (allocations) rows = withAllocations(rows, allocations.results);
  } catch (err) {
    throw usageError(err.message);
  }
  if (!rows.length) throw usageError('no bench has a row counted and timed against the same reference', 'give the count and the timed runs the same benches and drivers');
  let calibration = calibrateCounts(rows);
  if (allocations) calibration = { ...calibration, ...explainByAllocation(calibration.rows) };
  const record = calibrationRecord({ calibration, countsFile: counts.file, allocationsFile: allocations?.file ?? null, timedFiles: timed.map((t) => t.file), createdAt: new Date().toISOString() });
  mkdirSync(opts.out, { recursive: true });
  const file = join(opts.out, `count-calibration-${record.createdAt.replace(/[:.]/g, '-')}.json`);
  const json = `${JSON.stringify(record, null, 2)}\n`;
  writeFileSync(file, json);
  if (opts.json === true || opts.json === '-') stdout.write(json);
  else {
    if (typeof opts.json === 'string') writeFileSync(opts.json, json);
    stdout.write(renderCountCalibration(calibration, { sittings: timed.length }));
  }
  stderr.write(`calibration saved to ${resolve(file)}\n`);
  if (timed.length < DEFAULT_SITTINGS) stderr.write(`calibrate --count: ${timed.length} sitting(s) timed; the target is judged on at least ${DEFAULT_SITTINGS}\n`);
  return calibration.met && timed.length >= DEFAULT_SITTINGS ? EXIT.OK : EXIT.ROWS_FAILED;
}
