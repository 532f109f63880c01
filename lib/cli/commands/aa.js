// `aa`: the baseline driver measured against a second row of itself with the normal machinery:
// whatever Δ appears is the harness and the host, not a driver (docs/measuring.md, "The A/A self-test: `aa`").
import Table from 'cli-table3';
import { DESIGN_BENCHES, selectBenches } from '../../../benchs/index.js';
import { EXIT } from '../../common/errors.js';
import { describeIntervalLevel, fmtDelta, jointIntervals } from '../../reporting/format.js';
import { fmtBound, fmtOps, fmtPct, fmtSignedPct, fmtUs } from '../../common/format-numbers.js';
import { median } from '../../common/stats.js';
import { describeRun } from '../../reporting/table.js';
import { assertDriverNames } from '../../drivers/index.js';
import { runBenchmark } from '../../run.js';
import { addMeasureOptions } from '../options.js';
import { exitCodesHelp } from '../exit-codes.js';
import { redactArgv } from '../../common/redact.js';

export const TWIN_TAG = 'aa';

export function aaPairs(results) {
  const base = results.settings.baseline;
  const twin = `${base}#${TWIN_TAG}`;
  return results.benches.map((b) => ({
    bench: b,
    a: b.results.find((r) => r.driver === base),
    b: b.results.find((r) => r.driver === twin),
  }));
}

// Two processes of one driver whose client CPU per operation differs by more than this are in
// different states of their own (docs/measuring.md, "Processes differ").
export const PROCESS_STATE_PCT = 15;

function cpuPerOp(a, b) {
  const ca = a?.cost?.clientCpuUsPerOp;
  const cb = b?.cost?.clientCpuUsPerOp;
  return ca > 0 && cb > 0 ? { ca, cb, pct: (cb / ca - 1) * 100 } : null;
}

/** Pure: a note when the A and B rows' processes did different work per operation. A row of several processes averages them. */
export function processStateNote(benchName, a, b) {
  const cpu = cpuPerOp(a, b);
  if (!cpu || Math.abs(cpu.pct) <= PROCESS_STATE_PCT) return null;
  const { ca, cb, pct } = cpu;
  const processes = Math.max(a.processes ?? 1, b.processes ?? 1);
  const who = processes > 1 ? `the two rows' processes (${processes} a row)` : 'the two processes';
  const which = processes > 1 ? 'some of them are in a state of their own' : 'one process is in a state of its own';
  return `${benchName}: ${who} spent ${fmtUs(ca)} and ${fmtUs(cb)} µs of client CPU per operation (${fmtSignedPct(pct, 0)}): `
    + `${which} (JIT, heap), not the host; run again to draw new processes`;
}

/**
 * Pure: whether the processes' own work explains a significant Δ. Client CPU is part of an operation's
 * time, so a process faster by Δ because it works more cheaply spends at least about Δ/2 less CPU per operation.
 */
export function significantNote(benchName, a, b) {
  const cpu = cpuPerOp(a, b);
  if (!cpu || !Number.isFinite(b?.deltaPct)) return null;
  const { ca, cb, pct: cpuPct } = cpu;
  const figures = `${fmtUs(cb)} against ${fmtUs(ca)} µs of client CPU per operation (${fmtSignedPct(cpuPct, 1)})`;
  if (Math.sign(cpuPct) === -Math.sign(b.deltaPct) && Math.abs(cpuPct) >= Math.abs(b.deltaPct) / 2) {
    return `${benchName}: the twin spent ${figures}, in line with its ${fmtSignedPct(b.deltaPct, 1)}: `
      + 'the processes themselves differ, not their measurement; a new sitting draws new processes';
  }
  return `${benchName}: the twin spent ${figures}: not the processes' own work; chance, or the host`;
}

export function summarizeAA(results) {
  const measured = aaPairs(results).filter((p) => p.a?.ok && p.b?.ok && Number.isFinite(p.b.deltaPct));
  const abs = measured.map((p) => Math.abs(p.b.deltaPct));
  const largest = measured.reduce((m, p) => (m === null || Math.abs(p.b.deltaPct) > Math.abs(m.b.deltaPct) ? p : m), null);
  return {
    benches: measured.length,
    resolution: results.resolution,
    medianAbsDeltaPct: abs.length ? median(abs) : null,
    largest: largest && { bench: largest.bench.name, deltaPct: largest.b.deltaPct },
    significant: measured.filter((p) => p.b.deltaSignificant).map((p) => p.bench.name),
  };
}

/** How often intervals like the run's call an A/A bench by chance. */
function chanceCall(res) {
  return jointIntervals(res) ? `the run's ${res.comparisons} intervals all hold in 19 sittings of 20: one sitting in 20 calls a bench`
    : 'a 95 % interval leaves out the true Δ in about 1 sitting of 20';
}

export function renderAA(results) {
  const table = new Table({
    head: ['bench', 'driver', 'ops/s (A)', 'ops/s (B)', 'rounds', 'A/A Δ (B vs A)', jointIntervals(results.resolution) ? '95 % joint interval' : '95 % interval'],
    colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
    style: { head: [], border: [], compact: true },
  });
  const notes = [];
  for (const { bench, a, b } of aaPairs(results)) {
    if (!a?.ok || !b?.ok) {
      const shown = (r) => (r?.ok ? fmtOps(r.opsPerSec) : r?.status === 'n/a' ? 'n/a' : 'FAILED');
      table.push([bench.name, a?.driver ?? '', shown(a), shown(b), '', '', '']);
      for (const r of [a, b]) if (r && !r.ok) notes.push(`${bench.name} · ${r.driver}: ${r.status === 'n/a' ? 'n/a' : 'FAILED'}: ${r.error}`);
      if (a?.status === 'n/a') notes.push(`${bench.name}: name a driver that runs it with --baseline (e.g. mysql2) to measure its A/A`);
      continue;
    }
    const ci = b.deltaCI ? `${fmtBound(b.deltaCI[0])} … ${fmtBound(b.deltaCI[1])}` : '-';
    const stateNote = b.deltaSignificant ? significantNote(bench.name, a, b) : processStateNote(bench.name, a, b);
    if (stateNote) notes.push(stateNote);
    table.push([bench.name, a.driver, fmtOps(a.opsPerSec), fmtOps(b.opsPerSec), String(b.deltaPairs ?? ''), fmtDelta(b, bench, results.settings.baseline), ci]);
  }
  const s = summarizeAA(results);
  const lines = [...describeRun(results), table.toString()];
  if (notes.length) lines.push(notes.map((n) => `  ${n}`).join('\n'));
  if (s.resolution) {
    lines.push(`this machine resolves differences above ${fmtPct(s.resolution.pct)} (A/A, ${s.benches} bench${s.benches === 1 ? '' : 'es'}; `
      + `the median half-width of the paired Δs' intervals, ${describeIntervalLevel(s.resolution)}; widest ±${fmtPct(s.resolution.largestPct)})`);
  }
  if (s.largest) {
    lines.push(`A/A |Δ|: median ${fmtPct(s.medianAbsDeltaPct)}, largest ${fmtPct(Math.abs(s.largest.deltaPct))} (${s.largest.bench}); `
      + (s.significant.length ? `called significant: ${s.significant.join(', ')} — ${chanceCall(s.resolution)} `
        + 'by chance, and two processes of one driver can differ by a few per cent (the notes above give their client CPU); '
        + `run \`aa ${s.significant.join(' ')}\` again: called again, the harness cannot tell this driver from itself there` : 'none called significant'));
  }
  if (!results.complete) lines.push(`INCOMPLETE: ${results.stoppedBy ?? 'the run did not finish'}`);
  return `${lines.join('\n')}\n`;
}

/** The run variant behind `aa`: two processes of the baseline, its report, exit 1 on a false difference. */
export function aaVariant() {
  return {
    prepareDrivers: (drivers) => drivers,
    render: (results) => renderAA(results),
    exitCode: (results, code) => (code === EXIT.OK && summarizeAA(results).significant.length ? EXIT.ROWS_FAILED : code),
  };
}

export function aaRun(benchNames, opts) {
  const benches = benchNames?.length ? selectBenches(benchNames) : DESIGN_BENCHES;
  const driver = opts.baseline;
  return { benches, opts: { ...opts, drivers: [driver, `${driver}#${TWIN_TAG}`], baseline: driver, scaleSmallRuns: false } };
}

export function registerAa(program, { stdout, stderr, env, signal, setExitCode, argv = [] }) {
  addMeasureOptions(program.command('aa'))
    .description('A/A: measure the baseline driver against a second row of itself (processes of its own) with the normal machinery, and print the resolution this machine gives (differences below it cannot be told from noise)')
    .argument('[bench...]', `benches (default: the seven design benches, ${DESIGN_BENCHES.map((b) => b.name).join(', ')})`)
    .option('-b, --baseline <driver>', 'the driver measured against itself (mysql2 by default: of the built-in drivers, mysql has no prepared statements for execute)', 'mysql2')
    .addHelpText('after', exitCodesHelp('aa'))
    .action(async (benchNames, opts) => {
      const run = aaRun(benchNames, { ...opts, concurrency: 1, smoke: false });
      assertDriverNames(run.opts.drivers);
      setExitCode(await runBenchmark({ ...run, env, stdout, stderr, signal, variant: aaVariant(), command: { argv: redactArgv(argv, env) } }));
    });
}
