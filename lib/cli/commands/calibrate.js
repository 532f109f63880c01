// `calibrate`: each driver's harness row against a bare await loop of the same statement in the same
// processes, paired round by round (docs/measuring.md, "Calibrating the harness"). With --count cycles it
// calibrates the counts against time instead (calibrate-count.js).
import Table from 'cli-table3';
import { selectBenches } from '../../../benchs/index.js';
import { EXIT } from '../../common/errors.js';
import { fmtInt } from '../../common/format-numbers.js';
import { round3 } from '../../common/stats.js';
import { pairedDelta } from '../../measuring/figures/paired-delta.js';
import { describeRun } from '../../reporting/table.js';
import { BUILTIN_DRIVERS, assertDriverNames } from '../../drivers/index.js';
import { runBenchmark } from '../../run.js';
import { positiveInteger, splitList } from '../../common/config.js';
import { addMeasureOptions } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';
import { redactArgv } from '../../common/redact.js';
import { DESIGN_BENCHES } from '../../../benchs/index.js';
import { DEFAULT_SITTINGS, calibrateCount } from './calibrate-count.js';

export const MIN_RATIO = 0.98;
export const CALIBRATION_BENCHES = ['do', 'select_100_cols'];
const BARE = ' (bare loop)';

/** Each driver and its bare-loop twin (the same adapter, in the driver's processes: measuring/run/bench.js). */
export function withBareTwins(drivers) {
  return drivers.flatMap((d) => [d, { ...d, name: `${d.name}${BARE}`, bareLoopOf: d.name }]);
}

/** Pure: per bench and driver, the harness row, the bare row and their paired ratio (3 decimals, as shown). */
export function calibrationRows(results) {
  const rows = [];
  for (const bench of results.benches) {
    for (const harness of bench.results.filter((r) => !r.driver.endsWith(BARE))) {
      const bare = bench.results.find((r) => r.driver === `${harness.driver}${BARE}`);
      const row = { bench: bench.name, driver: harness.driver, harness, bare, ratio: null, ratioCI: null };
      if (harness.ok && bare?.ok) {
        // Judged as shown: a ratio of 0.9795 reads 0.980 and is not LOW.
        const d = pairedDelta(harness.rounds, bare.rounds, 0.95, { sameProcesses: true });
        row.ratio = d ? round3(1 + d.deltaPct / 100) : null;
        row.ratioCI = d?.ci ? d.ci.map((x) => round3(1 + x / 100)) : null;
      }
      rows.push(row);
    }
  }
  return rows;
}

const fmtRatio = (r) => (r.ratio === null ? '-' : `${r.ratio.toFixed(3)}${r.ratioCI ? ` (${r.ratioCI[0].toFixed(3)}–${r.ratioCI[1].toFixed(3)})` : ''}`);

export function renderCalibration(results) {
  const table = new Table({
    head: ['bench', 'driver', 'harness ops/s', 'bare loop ops/s', 'harness/bare: median of rounds (95 % interval)'],
    colAligns: ['left', 'left', 'right', 'right', 'right'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of calibrationRows(results)) {
    const failed = !r.harness.ok ? r.harness : r.bare && !r.bare.ok ? r.bare : null;
    table.push([r.bench, r.driver, r.harness.ok ? fmtInt(r.harness.opsPerSec) : '', r.bare?.ok ? fmtInt(r.bare.opsPerSec) : '',
      failed ? `${failed.status === 'n/a' ? 'n/a' : 'FAILED'}: ${failed.error}` : `${fmtRatio(r)}${r.ratio < MIN_RATIO ? ' LOW' : ''}`]);
  }
  return `${[...describeRun(results), table.toString()].join('\n')}\n`;
}

export function calibrateVariant(stderr) {
  return {
    prepareDrivers: withBareTwins,
    render: renderCalibration,
    exitCode(results, code) {
      const low = calibrationRows(results).filter((r) => r.ratio !== null && r.ratio < MIN_RATIO);
      if (code !== EXIT.OK || low.length === 0) return code;
      stderr.write(`mysql-driver-bench: harness/bare below ${MIN_RATIO} for ${low.map((r) => `${r.driver} ${r.bench}`).join(', ')} — `
        + 'the harness is costing the drivers time on this machine, or the machine is too busy to measure: run again on a quiet machine\n');
      return EXIT.ROWS_FAILED;
    },
  };
}

export const calibrationBenches = () => selectBenches(CALIBRATION_BENCHES);

export function registerCalibrate(program, { stdout, stderr, env, signal, setExitCode, argv = [] }) {
  addMeasureOptions(program.command('calibrate'))
    .description(`check that the harness reports what a bare await loop of the same driver and statement measures, in interleaved windows (harness/bare >= ${MIN_RATIO} per driver on ${CALIBRATION_BENCHES.join(' and ')}); `
      + 'with --count cycles, check instead how counts rank the drivers against timed replay (docs/replay.md)')
    .argument('[bench...]', `benches (default: ${CALIBRATION_BENCHES.join(' and ')}; with --count, the seven design benches)`)
    .option('-d, --drivers <list>', 'drivers to calibrate', splitList, BUILTIN_DRIVERS)
    .option('--sittings <n>', `with --count: timed replay runs after the count, one after another, each interleaving the drivers (default ${DEFAULT_SITTINGS}); a row's time ratio is their median`, positiveInteger('--sittings'))
    .option('--counts <file>', 'with --count: a --replay --count cycles results file to use instead of counting')
    .option('--allocations <file>', 'with --count: a --replay --count allocations results file of the same rows to use instead of counting allocations (not counted when --counts and --timed are both given without it)')
    .option('--smoke', 'with --count: one short pass of the whole command (small counts, tiny sittings): it checks that it runs, its figures are not to quote')
    .option('--timed <files>', 'with --count: timed --replay results files (comma-separated) to use instead of timing', splitList)
    .addHelpText('after', exitCodesHelp('calibrate'))
    .action(async (benchNames, opts) => {
      assertDriverNames(opts.drivers);
      const command = { argv: redactArgv(argv, env) };
      if (opts.count) {
        const benches = selectBenches(benchNames.length ? benchNames : DESIGN_BENCHES.map((b) => b.name));
        setExitCode(await calibrateCount({ benches, opts, env, stdout, stderr, signal, command }));
        return;
      }
      const benches = benchNames.length ? selectBenches(benchNames) : calibrationBenches();
      setExitCode(await runBenchmark({
        benches, opts: { ...opts, baseline: opts.drivers[0], concurrency: 1 }, env, stdout, stderr, signal, variant: calibrateVariant(stderr), command,
      }));
    });
}
