import { Command, Option, CommanderError } from 'commander';
import { BENCHES, DEFAULT_BENCHES, selectBenches } from '../benchs/index.js';
import { EXIT, UserError } from './errors.js';
import { redact } from './redact.js';
import { positiveInteger, positiveNumber, splitList } from './config.js';
import { BUILTIN_DRIVERS, assertDriverNames, loadDrivers } from './drivers/index.js';
import { PRESETS, runBenchmark } from './run.js';
import { DEFAULT_PLACEMENT, parsePlacement } from './measuring/placement.js';
import { parseConcurrency } from './scaling.js';
import { DEFAULT_ACCOUNTS } from './transfer.js';
import { parseWake, DEFAULT_WAKE } from './wake.js';
import { CALIBRATION_BENCHES, MIN_RATIO, calibrateVariant, calibrationBenches } from './calibrate.js';
import { DESIGN_BENCHES, aaRun, aaVariant } from './commands/aa.js';
import { renderBenchList } from './report.js';
import { registerCompare } from './commands/compare.js';
import { registerReport } from './commands/report.js';

const EXAMPLES = `
Examples:
  $ mysql-driver-bench                              the default benches, all drivers, embedded MariaDB
  $ mysql-driver-bench do select_100_cols           two benches only
  $ mysql-driver-bench --drivers mysql2,mariadb     two drivers; the first listed is the baseline
  $ mysql-driver-bench --drivers mariadb,mysql2 --baseline mysql2
  $ mysql-driver-bench --smoke --json -             quick pass for CI, JSON on stdout
  $ DB_HOST=127.0.0.1 DB_USER=bench DB_PASSWORD=... mysql-driver-bench --concurrency 4
  $ mysql-driver-bench list                         what each bench runs, per driver
  $ mysql-driver-bench connect connect_tls select_types
                                                    benches that run only when named

With no --host/--socket (nor DB_HOST/DB_SOCKET, nor conf.js), a throwaway MariaDB
(mariadbd from the mariadb-server package) is started on 127.0.0.1 and removed after.

Exit codes: 0 all rows measured and checked · 1 some row failed its check or errored
2 bad usage · 3 server unreachable or unusable · 4 run stopped part-way (partial results saved)
130 interrupted (Ctrl-C; partial results saved)`;

function addRunOptions(cmd) {
  cmd
    .option('-d, --drivers <list>', `comma-separated drivers (${BUILTIN_DRIVERS.join(', ')}); name#tag runs another process of the same driver, e.g. mysql2#2`, splitList, BUILTIN_DRIVERS)
    .option('-b, --baseline <driver>', 'driver the Δ column compares against (default: mysql when it is run, else the first driver listed)')
    .option('-c, --concurrency <n>', 'connections per driver, each with one call in flight (pool benches: callers sharing a pool of that size); a list such as 1,4,16 runs every bench at each level and prints a scaling table', parseConcurrency, 1)
    .option('--transfer-accounts <n>', `accounts (and users, cards, tokens) seeded for the transfer bench (default ${DEFAULT_ACCOUNTS})`, positiveInteger('--transfer-accounts'))
    .option('--rtt <ms>', 'add this round-trip time between drivers and server (a latency proxy in its own process)')
    .option('--network <profile>', 'a named --rtt: lan (0.5 ms), wan (20 ms), loopback (0)')
    .option('--floor', 'add the wire-floor reference client (driver `floor`) to the drivers')
    .option('--smoke', 'one short pass for CI: every bench of the run (the default set, or those named) on every driver, checks on, tiny sampling');
  return addMeasureOptions(cmd);
}

/** How windows are measured, where processes run, where results go: every measuring command's. */
function addMeasureOptions(cmd) {
  cmd
    .option('-t, --time <seconds>', `measured time per bench and driver, split into --rounds windows (default ${PRESETS.default.time}; --smoke ${PRESETS.smoke.time})`, positiveNumber('--time'))
    .option('-r, --rounds <n>', `rounds per bench: each gives every driver one window, in a fresh random order (default ${PRESETS.default.rounds}; --smoke ${PRESETS.smoke.rounds})`, positiveInteger('--rounds'))
    .option('--lead <seconds>', `unmeasured lead-in at the start of every window (default ${PRESETS.default.lead})`, positiveNumber('--lead'))
    .option('--warmup <seconds>', `warm-up per bench and driver before its first window, every result checked (default ${PRESETS.default.warmup})`, positiveNumber('--warmup'))
    .option('--cpus <placement>', "CPU placement: 'shared' (each driver's JavaScript thread and the embedded server on one CPU, the rest on the others), 'split' (drivers on one CPU, server on another) or 'none' (the scheduler decides)", parsePlacement, DEFAULT_PLACEMENT)
    .option('--wake <mode>', "CPU wake-up control while sampling: 'spin' (lowest-priority busy loops keep idle CPUs awake; 'spin:N' for N loops) or 'none'", parseWake, parseWake(DEFAULT_WAKE))
    .option('--latency', 'wide table: p50, p90, p99 and max latency, the window-to-window spread, and the cost per operation (client CPU, GC, server CPU)')
    .option('--json [file]', "also write the results JSON to a file ('-' or no value: stdout, which then carries only the JSON)")
    .option('-o, --out <dir>', 'directory for the results JSON', 'results')
    .option('-q, --quiet', 'no progress lines on stderr');
  return addConnectionOptions(cmd);
}

/** Where the server is (none of these: the embedded one), and --debug. */
function addConnectionOptions(cmd) {
  return cmd
    .addOption(new Option('--host <host>', 'server host (a remote server: nothing is started)'))
    .addOption(new Option('--port <port>', 'server port'))
    .addOption(new Option('--user <user>', 'user name'))
    .addOption(new Option('--password <password>', 'password (prefer DB_PASSWORD: flags show up in the process list)'))
    .addOption(new Option('--database <name>', "the harness's own schema (created and used only by it)"))
    .addOption(new Option('--socket <path>', 'unix socket of the server'))
    .option('--debug', 'print stack traces on errors');
}

export function buildProgram({ stdout = process.stdout, stderr = process.stderr, env = process.env, signal } = {}) {
  const program = new Command();
  let exitCode = EXIT.OK;
  program
    .name('mysql-driver-bench')
    .description('Benchmark the Node.js MySQL-protocol drivers (mysql, mysql2, mariadb) doing the same work against the same server.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stderr.write(s) })
    .showHelpAfterError('(see mysql-driver-bench --help)')
    .enablePositionalOptions();

  // The root command runs benches; `run` is accepted as an explicit synonym (see main).
  addRunOptions(program)
    .usage('[run] [options] [bench...]')
    .argument('[bench...]', `benches to run (${BENCHES.map((b) => b.name).join(', ')}); when none are named, all but `
      + `${BENCHES.filter((b) => !DEFAULT_BENCHES.includes(b)).map((b) => b.name).join(', ')}, which run only when named`)
    .action(async (benchNames, opts) => {
      const benches = selectBenches(benchNames);
      if (opts.floor && !opts.drivers.includes('floor')) opts.drivers = [...opts.drivers, 'floor'];
      assertDriverNames(opts.drivers);
      exitCode = await runBenchmark({ benches, opts, env, stdout, stderr, signal });
    });

  addMeasureOptions(program.command('aa'))
    .description('A/A: measure the baseline driver against a second process of itself with the normal machinery, and print the resolution this machine gives (differences below it cannot be told from noise)')
    .argument('[bench...]', `benches (default: the seven design benches, ${DESIGN_BENCHES.join(', ')})`)
    .option('-b, --baseline <driver>', 'the driver measured against itself (mysql2 by default: of the built-in drivers, mysql has no prepared statements for execute)', 'mysql2')
    .action(async (benchNames, opts) => {
      const run = aaRun(benchNames, { ...opts, concurrency: 1, smoke: false });
      assertDriverNames(run.opts.drivers);
      exitCode = await runBenchmark({ ...run, env, stdout, stderr, signal, variant: aaVariant() });
    });

  addMeasureOptions(program.command('calibrate'))
    .description(`check that the harness reports what a bare await loop of the same driver and statement measures, in interleaved windows (harness/bare >= ${MIN_RATIO} per driver on ${CALIBRATION_BENCHES.join(' and ')})`)
    .option('-d, --drivers <list>', 'drivers to calibrate', splitList, BUILTIN_DRIVERS)
    .action(async (opts) => {
      assertDriverNames(opts.drivers);
      exitCode = await runBenchmark({
        benches: calibrationBenches(), opts: { ...opts, baseline: opts.drivers[0], concurrency: 1 }, env, stdout, stderr, signal, variant: calibrateVariant(stderr),
      });
    });

  program.command('list')
    .description('list the benches: name, what it measures, SQL, and the protocol path each driver uses; those marked (when named) are not in the default run')
    .option('-d, --drivers <list>', 'drivers to show', splitList, BUILTIN_DRIVERS)
    .action(async (opts) => {
      const drivers = await loadDrivers(opts.drivers);
      // Protocol paths as on a MariaDB server with every feature (bulk, BLACKHOLE, TLS).
      const context = { schema: 'mysql_driver_bench', server: { kind: 'mariadb', bulk: true, blackhole: true }, tls: { available: true, ca: null } };
      stdout.write(renderBenchList(BENCHES, drivers, context));
    });

  const io = { stdout, stderr, setExitCode: (code) => { exitCode = code; } };
  registerCompare(program, io);
  registerReport(program, io);

  program.addHelpText('after', EXAMPLES);
  return { program, exitCode: () => exitCode };
}

export function formatError(err, debug) {
  if (err instanceof UserError) {
    const line = `mysql-driver-bench: error: ${err.message}${err.hint ? ` — ${err.hint}` : ''}`;
    const stack = debug && err.cause ? `\n${err.cause.stack || err.cause}` : '';
    return redact(line + stack);
  }
  if (debug) return redact(`mysql-driver-bench: unexpected error\n${err?.stack || err}`);
  return redact(`mysql-driver-bench: unexpected error: ${err?.message || err} — run again with --debug for the stack trace, and report it`);
}

/** Parse argv, run, return the exit code. Never throws. */
export async function main(argv, io = {}) {
  const stderr = io.stderr ?? process.stderr;
  const debug = argv.includes('--debug');
  const { program, exitCode } = buildProgram(io);
  try {
    await program.parseAsync(argv[0] === 'run' ? argv.slice(1) : argv, { from: 'user' });
    return exitCode();
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help' || err.code === 'commander.version') return EXIT.OK;
      // commander already printed its one-line message
      return EXIT.USAGE;
    }
    stderr.write(`${formatError(err, debug)}\n`);
    return err instanceof UserError ? err.exitCode : 70;
  }
}
