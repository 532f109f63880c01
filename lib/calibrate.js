// `calibrate`: proves the harness's sampling path reports what a bare await-loop of the same
// driver and statement does, and measures this host's CPU wake-up sensitivity.
import { performance } from 'node:perf_hooks';
import Table from 'cli-table3';
import { loadDrivers } from './drivers/index.js';
import { measure } from './sampler.js';
import { median, medianConfidenceInterval } from './stats.js';
import { createHundredCols, checkHundredCols } from '../benchs/_tables.js';
import { expectOk } from './check.js';
import { withWake, describeWake } from './wake.js';
import { openServer, trapSignals, Interrupted } from './session.js';
import { fmtInt } from './format.js';
import { EXIT } from './errors.js';

export const MIN_RATIO = 0.98;
const WARM_UP_SECONDS = 0.3;
const SLICE_WARM_UP_SECONDS = 0.05;

const fmtRatio = (row) => `${row.ratio.toFixed(3)}${row.ratioCI ? ` (${row.ratioCI[0].toFixed(3)}–${row.ratioCI[1].toFixed(3)})` : ''}`;

const STATEMENTS = [
  { name: 'DO 1', sql: 'DO 1', check: (r) => expectOk(r, 0) },
  { name: 'select_100_cols', sql: 'SELECT * FROM select_100_cols', check: checkHundredCols },
];

/** A bare loop: the statement awaited back to back for `seconds`, nothing else. */
async function bareLoop(conn, sql, seconds) {
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  let n = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 32; i++) await conn.query(sql);
    n += 32;
    now = performance.now();
  }
  return n / ((now - start) / 1000);
}

/**
 * For each wake mode, driver and statement: `pairs` back-to-back pairs of short slices, one through
 * the harness path (benchmark.js, the sampler's batching, checks and latency recording) and one bare
 * loop, `time` seconds each, which of the two goes first alternating. The ratio is the median of the
 * pairs' harness/bare ratios, with its distribution-free 95 % confidence interval: short adjacent
 * slices cancel the machine's drift, many pairs and the median its hiccups.
 */
export async function calibrate({ opts, env, stdout, stderr, signal: outerSignal }) {
  const signals = trapSignals(stderr, outerSignal);
  const log = (l) => { if (!opts.quiet) stderr.write(`${l}\n`); };
  let session = null;
  const rows = [];
  const sensitivity = [];
  try {
    const drivers = await loadDrivers(opts.drivers);
    session = await openServer({ opts, env, log, abort: signals.abort, signal: signals.signal });
    await createHundredCols(session.admin, session.target.database);
    for (const wake of opts.wakeModes) {
      await withWake(wake, async () => {
        for (const driver of drivers) {
          const conn = await driver.connect(session.target);
          try {
            for (const st of STATEMENTS) {
              await bareLoop(conn, st.sql, WARM_UP_SECONDS); // JIT and connection warm before the first pair
              const harness = [];
              const bare = [];
              const ratios = [];
              for (let i = 0; i < opts.pairs; i++) {
                signals.signal.throwIfAborted();
                const runHarness = async () => {
                  const m = await measure({
                    ops: [() => conn.query(st.sql)], check: st.check, time: opts.time, warmup: SLICE_WARM_UP_SECONDS, minSamples: 2, signal: signals.signal,
                  });
                  harness.push(m.opsPerSec);
                };
                const runBare = async () => { await conn.query(st.sql); bare.push(await bareLoop(conn, st.sql, opts.time)); };
                // Alternate which goes first, so neither always profits from the other's warm-up.
                if (i % 2 === 0) { await runHarness(); await runBare(); } else { await runBare(); await runHarness(); }
                ratios.push(harness.at(-1) / bare.at(-1));
              }
              const row = {
                wake: describeWake(wake), driver: driver.name, statement: st.name,
                harness: median(harness), bare: median(bare), ratio: median(ratios),
                ratioCI: medianConfidenceInterval(ratios), pairs: ratios.length,
              };
              rows.push(row);
              log(`${row.wake.padEnd(7)} ${driver.name.padEnd(10)} ${st.name.padEnd(16)} harness ${fmtInt(row.harness)} · bare ${fmtInt(row.bare)} ops/s · ratio ${fmtRatio(row)}`);
            }
          } finally {
            await conn.close().catch(() => {});
          }
        }
      });
    }
    // Host sensitivity: a bare DO 1 loop on one connection with idle CPUs, then kept awake.
    const [first] = drivers;
    const conn = await first.connect(session.target);
    try {
      const byMode = {};
      for (const wake of [{ mode: 'none', spinners: 0 }, opts.spinMode]) {
        const figures = [];
        await withWake(wake, async () => {
          for (let i = 0; i < opts.pairs; i++) figures.push(await bareLoop(conn, 'DO 1', opts.time));
        });
        byMode[wake.mode] = median(figures);
      }
      sensitivity.push({ driver: first.name, idle: byMode.none, awake: byMode.spin, factor: byMode.spin / byMode.none, spin: describeWake(opts.spinMode) });
    } finally {
      await conn.close().catch(() => {});
    }
  } catch (err) {
    if (err instanceof Interrupted || signals.signal.reason instanceof Interrupted) {
      stderr.write('mysql-driver-bench: calibrate interrupted\n');
      return (signals.signal.reason ?? err).exitCode;
    }
    throw err;
  } finally {
    await session?.close();
    signals.dispose();
  }

  stdout.write(renderCalibration(rows, sensitivity));
  const low = rows.filter((r) => r.ratio < MIN_RATIO);
  if (low.length) {
    stderr.write(`mysql-driver-bench: harness/bare below ${MIN_RATIO} for ${low.map((r) => `${r.driver} ${r.statement} (${r.wake})`).join(', ')} — `
      + 'the harness is costing the drivers time on this machine, or the machine is too busy to measure: run again on a quiet machine\n');
    return EXIT.ROWS_FAILED;
  }
  return EXIT.OK;
}

export function renderCalibration(rows, sensitivity) {
  const table = new Table({
    head: ['wake', 'driver', 'statement', 'harness ops/s', 'bare loop ops/s', 'harness/bare: median of pairs (95 % CI)'],
    colAligns: ['left', 'left', 'left', 'right', 'right', 'right'],
    style: { head: [], border: [], compact: true },
  });
  for (const r of rows) {
    table.push([r.wake, r.driver, r.statement, fmtInt(r.harness), fmtInt(r.bare), `${fmtRatio(r)}${r.ratio < MIN_RATIO ? ' LOW' : ''}`]);
  }
  const lines = [table.toString()];
  for (const s of sensitivity) {
    lines.push(`wake-up sensitivity (bare DO 1 loop, ${s.driver}, one connection): ${fmtInt(s.idle)} ops/s with idle CPUs, `
      + `${fmtInt(s.awake)} ops/s kept awake (${s.spin}): ×${s.factor.toFixed(2)}`);
    lines.push(s.factor > 1.2
      ? '  this host\'s CPU wake-ups dominate one-connection figures: compare only runs taken in the same --wake mode'
      : '  this host\'s CPU wake-ups barely move one-connection figures');
  }
  return lines.join('\n') + '\n';
}
