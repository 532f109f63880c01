import { Command, Option, CommanderError } from 'commander';
import { BENCHES, selectBenches } from '../benchs/index.js';
import { EXIT, UserError } from './errors.js';
import { redact } from './redact.js';
import { positiveInteger, positiveNumber, splitList } from './config.js';
import { BUILTIN_DRIVERS, assertDriverNames, loadDrivers } from './drivers/index.js';
import { runBenchmark } from './run.js';
import { parseConcurrency } from './scaling.js';
import { DEFAULT_ACCOUNTS } from './transfer.js';
import { parseWake, DEFAULT_WAKE } from './wake.js';
import { calibrate } from './calibrate.js';
import { renderBenchList } from './report.js';
import { registerCompare } from './commands/compare.js';
import { registerReport } from './commands/report.js';

const EXAMPLES = `
Examples:
  $ mysql-driver-bench                              all benches, all drivers, embedded MariaDB
  $ mysql-driver-bench do select_100_cols           two benches only
  $ mysql-driver-bench --drivers mysql2,mariadb     two drivers; the first listed is the baseline
  $ mysql-driver-bench --drivers mariadb,mysql2 --baseline mysql2
  $ mysql-driver-bench --smoke --json -             quick pass for CI, JSON on stdout
  $ DB_HOST=127.0.0.1 DB_USER=bench DB_PASSWORD=... mysql-driver-bench --concurrency 4
  $ mysql-driver-bench list                         what each bench runs, per driver

With no --host/--socket (nor DB_HOST/DB_SOCKET, nor conf.js), a throwaway MariaDB
(mariadbd from the mariadb-server package) is started on 127.0.0.1 and removed after.

Exit codes: 0 all rows measured and checked · 1 some row failed its check or errored
2 bad usage · 3 server unreachable or unusable · 4 run stopped part-way (partial results saved)
130 interrupted (Ctrl-C; partial results saved)`;

function addRunOptions(cmd) {
  cmd
    .option('-d, --drivers <list>', `comma-separated drivers (${BUILTIN_DRIVERS.join(', ')})`, splitList, BUILTIN_DRIVERS)
    .option('-b, --baseline <driver>', 'driver the Δ column compares against (default: mysql when it is run, else the first driver listed)')
    .option('-c, --concurrency <n>', 'connections per driver, each with one call in flight (pool benches: callers sharing a pool of that size); a list such as 1,4,16 runs every bench at each level and prints a scaling table', parseConcurrency, 1)
    .option('--transfer-accounts <n>', `accounts (and users, cards, tokens) seeded for the transfer bench (default ${DEFAULT_ACCOUNTS})`, positiveInteger('--transfer-accounts'))
    .option('-t, --time <seconds>', 'sampling time per bench, driver and round (default 1.5; --smoke 0.1)', positiveNumber('--time'))
    .option('--warmup <seconds>', 'warm-up time per bench, driver and round, every result checked (default 0.3)', positiveNumber('--warmup'))
    .option('-r, --rounds <n>', 'run the whole matrix n times, driver order rotated each round (default 2; --smoke 1)', positiveInteger('--rounds'))
    .option('--wake <mode>', "CPU wake-up control while sampling: 'spin' (lowest-priority busy loops keep idle CPUs awake; 'spin:N' for N loops) or 'none'", parseWake, parseWake(DEFAULT_WAKE))
    .option('--latency', 'wide table: p50, p90, p99 and max latency, and the spread between rounds')
    .option('--rtt <ms>', 'add this round-trip time between drivers and server (a latency proxy in its own process)')
    .option('--network <profile>', 'a named --rtt: lan (0.5 ms), wan (20 ms), loopback (0)')
    .option('--floor', 'add the wire-floor reference client (driver `floor`) to the drivers')
    .option('--smoke', 'one short pass for CI: every bench on every driver, checks on, tiny sampling')
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
    .argument('[bench...]', `benches to run (${BENCHES.map((b) => b.name).join(', ')}); all when none are named`)
    .action(async (benchNames, opts) => {
      const benches = selectBenches(benchNames);
      if (opts.floor && !opts.drivers.includes('floor')) opts.drivers = [...opts.drivers, 'floor'];
      assertDriverNames(opts.drivers);
      exitCode = await runBenchmark({ benches, opts, env, stdout, stderr, signal });
    });

  addConnectionOptions(program.command('calibrate'))
    .description('check that the harness reports what a bare await-loop measures (harness/bare >= 0.98 per driver, in both wake modes), and measure this host\'s CPU wake-up sensitivity')
    .option('-d, --drivers <list>', 'drivers to calibrate', splitList, BUILTIN_DRIVERS)
    .option('-t, --time <seconds>', 'seconds per slice (each pair is one harness slice and one bare-loop slice)', positiveNumber('--time'), 0.25)
    .option('--pairs <n>', 'harness/bare pairs per driver, statement and wake mode (the ratio is their median, with its 95 % confidence interval)', positiveInteger('--pairs'), 30)
    .option('--wake <mode>', "wake modes to calibrate: 'both' or one mode ('spin', 'spin:N', 'none')", 'both')
    .option('-q, --quiet', 'no progress lines on stderr')
    .action(async (opts) => {
      assertDriverNames(opts.drivers);
      const spinMode = parseWake(opts.wake === 'both' || opts.wake === 'none' ? 'spin' : opts.wake);
      const wakeModes = opts.wake === 'both' ? [parseWake('none'), spinMode] : [parseWake(opts.wake)];
      exitCode = await calibrate({ opts: { ...opts, wakeModes, spinMode }, env, stdout, stderr, signal });
    });

  program.command('list')
    .description('list the benches: name, what it measures, SQL, and the protocol path each driver uses')
    .option('-d, --drivers <list>', 'drivers to show', splitList, BUILTIN_DRIVERS)
    .action(async (opts) => {
      const drivers = await loadDrivers(opts.drivers);
      // Protocol paths as on a MariaDB server with every feature (bulk, BLACKHOLE).
      const context = { schema: 'mysql_driver_bench', server: { kind: 'mariadb', bulk: true, blackhole: true } };
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
