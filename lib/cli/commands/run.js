// The root command (`run` is accepted as an explicit synonym): the chosen benches on the chosen
// drivers, one run (lib/run.js).
import { BENCHES, DEFAULT_BENCHES, DESIGN_BENCHES, selectBenches } from '../../../benchs/index.js';
import { runBenchmark } from '../../run.js';
import { addRunOptions, nonNegativeNumber } from '../options.js';
import { splitList } from '../../common/config.js';
import { parseShard, parseStartAt } from '../../measuring/run/shards.js';
import { exitCodesHelp } from '../exit-codes.js';
import { applyOptionFiles } from '../option-files.js';
import { redactArgv } from '../../common/redact.js';
import { addedBenches, collect } from '../bench-sources.js';

export const EXAMPLES = `
Examples:
  $ mysql-driver-bench                              the default benches, all drivers, embedded MariaDB
  $ mysql-driver-bench connect connect_tls select_types
                                                    benches that run only when named
  $ mysql-driver-bench do select_100_cols           two benches only
  $ mysql-driver-bench --drivers mysql2,mariadb     two drivers; the first listed is the baseline
  $ mysql-driver-bench --drivers mariadb,mysql2 --baseline mysql2
  $ mysql-driver-bench do --replay --count instructions --drivers 'mysql2@3.0.0..3.24.5:minor'
                                                    the first release of each minor, counted, with
                                                    their release history (:last-of-minor, :pre)
  $ mysql-driver-bench --smoke --json -             quick pass for CI, JSON on stdout
  $ DB_HOST=127.0.0.1 DB_USER=bench DB_PASSWORD=... mysql-driver-bench --concurrency 4
  $ mysql-driver-bench pool_select --rate 50%,120% --latency-limit 10
                                                    an open schedule at half and 1.2 × the closed-loop
                                                    maximum: latency against throughput
  $ mysql-driver-bench list                         what each bench runs, per driver

With no --host/--socket (nor DB_HOST/DB_SOCKET, nor conf.js), a throwaway MariaDB
(mariadbd from the mariadb-server package) is started on 127.0.0.1 and removed after.`;

/** The root command: `mysql-driver-bench [run] [options] [bench...]`. */
export function registerRun(program, { stdout, stderr, env, signal, setExitCode, argv = [] }) {
  addRunOptions(program)
    .option('--runtimes <list>', "one row per driver and runtime: node (the harness's Node), node@<version> or bun[@<version>], fetched once from the npm registry into the cache (e.g. node@20,node@24,bun); bun-sql runs on Bun only", splitList)
    .option('--shard <i/n>', "measure share i of n of the run's cells (bench × row), each shard with the reference rows, to be joined by merge (e.g. the pods of a Kubernetes Indexed Job)", parseShard)
    .option('--start-at <time>', 'start measuring at this time (ISO 8601 or seconds since the epoch), after the set-up: the shards of a run on one server start together', (v) => parseStartAt(v))
    .option('--from <results.json>', "run again with a results file's drivers, benches and settings (flags given beside it override them); says what differs from the original run: Node, CPU, platform, server")
    .option('--config <file>', 'options from a JSON file, keys the long option names in camelCase (default: ./mysql-driver-bench.config.json when there is one); a flag overrides it')
    .option('--threshold <pct>', 'exit 1 when a row is slower than the baseline by more than pct %, beyond its interval (or the count\'s noise floor): a change and its base as two rows of one run, in CI', nonNegativeNumber('--threshold'))
    .option('--bench-file <path>', 'a bench module of your own, keeping the bench contract of benchs/*.js (repeatable)', collect)
    .option('--sql <file.sql>', "a bench of your own queries: one operation runs the file's statements, :name placeholders filled by its \\set lines, every reply checked against the harness's (repeatable; docs/benches.md)", collect)
    .option('--setup <schema.sql>', "with --sql: statements run once before, in the harness's own schema (create and fill tables)")
    .option('--prepared', 'with --sql: the statements as prepared statements (n/a where a driver has none)')
    .option('--allow-writes', 'with --sql on a server of your own: let statements write (in the harness\'s schema)')
    .usage('[run] [options] [bench...]')
    .argument('[bench...]', `benches to run (${BENCHES.map((b) => b.name).join(', ')}); when none are named, all but `
      + `${BENCHES.filter((b) => !DEFAULT_BENCHES.includes(b)).map((b) => b.name).join(', ')}, which run only when named`)
    .action(async (names, _opts, cmd) => {
      // The config file's and --from's options where the command line gave none (option-files.js).
      const { benchNames, from, releaseRanges, configFile } = applyOptionFiles(cmd, names);
      const opts = cmd.opts();
      if (releaseRanges) opts.releaseRanges = releaseRanges;
      const command = { argv: redactArgv(argv, env), ...(configFile ? { config: configFile } : {}) };
      // --rate with no bench named: the default run's benches that take an open schedule; --ci: the design card's seven.
      // --bench-file, --sql: benches of the user's own, run after those named (alone when none is named).
      const added = await addedBenches(opts);
      const named = benchNames?.length ? selectBenches(benchNames)
        : added.length ? [] : opts.rate ? DEFAULT_BENCHES.filter((b) => b.openSchedule) : opts.ci ? DESIGN_BENCHES : selectBenches(benchNames);
      const benches = [...named, ...added.filter((b) => !named.includes(b))];
      setExitCode(await runBenchmark({ benches, opts, env, stdout, stderr, signal, command, from }));
    });
  program.addHelpText('after', `${EXAMPLES}\n${exitCodesHelp('run')}`);
}
