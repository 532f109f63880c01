// The options the measuring commands share: what a run measures (the root command's), how windows
// are measured, where processes run and results go, and where the server is.
import { Option } from 'commander';
import { usageError } from '../common/errors.js';
import { positiveInteger, positiveNumber, splitList } from '../common/config.js';
import { BUILTIN_DRIVERS } from '../drivers/index.js';
import { MAX_ROUNDS_SCALE, PRESETS } from '../resolve-run.js';
import { NEW_PROCESS_WARMUP_S } from '../measuring/figures/warm-up-lengths.js';
import { parsePlacement } from '../common/placement.js';
import { parseConcurrency } from '../measuring/run/scaling.js';
import { parseLatencyLimit, parseRates, parseSchedule } from '../measuring/run/rate-passes.js';
import { benchOptionSpecs } from '../measuring/run/catalogue.js';
import { parseWake } from '../measuring/host/wake.js';
import { DEFAULT_JIT, parseJit } from '../measuring/run/jit-mode.js';
import { counterNamed, counterNames } from '../replay/counters/index.js';

/** A commander parser for a percentage of 0 or more (`--threshold`). */
export function nonNegativeNumber(flag) {
  return (value) => {
    const n = Number(value);
    if (String(value).trim() === '' || !Number.isFinite(n) || n < 0) {
      throw usageError(`${flag} must be a number of 0 or more (a percentage), not '${value}'`);
    }
    return n;
  };
}

/** --count: what to count instead of time, a counter's name (replay/counters/). */
const parseCount = (value) => counterNamed(value).name;

export function addRunOptions(cmd) {
  cmd
    .option('-d, --drivers <list>', `comma-separated drivers (${BUILTIN_DRIVERS.join(', ')}); a release (mysql2@3.9.0), every release of a range (mysql2@3.0.0..3.24.5; :minor the first of each minor, :last-of-minor the last, :pre with pre-releases), a local checkout (mysql2@file:../node-mysql2), a commit of a git repository (mysql2@git:../node-mysql2#v3.9.0, any ref: a branch, a tag, a SHA, HEAD~3), an adapter module (./adapter.js); label=spec to name a row yourself (head=mysql2@git:.#HEAD); driver:option=value for a variant with connection options of its own (mysql2:disableEval=true); driver~runtime for its processes on another runtime from the npm registry (mysql2~node@24, mysql2~bun); bun-sql, Bun's own client, on Bun; name#tag for another process of the same driver (mysql2#2)`, splitList, BUILTIN_DRIVERS)
    .option('--override-fairness', 'let a variant change an option the fairness rules fix for every driver (charset/collation, trace, compression); its row is marked')
    .option('-b, --baseline <driver>', 'driver the Δ column compares against (default: mysql when it is run, else the first driver listed)')
    .option('-c, --concurrency <n>', 'connections per driver, each with one call in flight (pool benches: callers sharing a pool of that size); a list such as 1,4,16 runs every bench at each level and prints a scaling table', parseConcurrency, 1);
  cmd
    .option('--rate <ops/s>', "open schedule for the benches that take one (`list` marks them (rate)): operations start at this rate whatever the driver's replies do, latency counted from each one's intended start; a list such as 2000,4000 or shares of the closed-loop maximum such as 50%,120% (measured first, in the same run) gives a latency-against-throughput table", parseRates)
    .option('--schedule <kind>', "with --rate: the arrivals' gaps, 'poisson' (exponential, as pgbench -R) or 'uniform' (default poisson)", parseSchedule)
    .option('--workers <n>', "each window of a row runs in n processes of the driver at once, each with its own --concurrency connections (and its share of a --rate); their operations are summed and their latency histograms merged: for a server bigger than one client core (spread them with --cpus none on a machine with more cores)", positiveInteger('--workers'))
    .option('--latency-limit <ms>', 'with --rate: count an operation late when it completes more than this after its intended start, and skip one that could not start within it (pgbench --latency-limit)', parseLatencyLimit);
  // Options the benches declare in their modules (the bench contract).
  for (const o of benchOptionSpecs()) cmd.option(o.flags, o.description, o.parse);
  cmd
    .option('--rtt <ms>', 'add this round-trip time between drivers and server, tuned so that a client sees it (see --rtt-via)')
    .option('--network <profile>', 'a named --rtt: lan (0.5 ms), wan (20 ms), loopback (0)')
    .option('--rtt-via <where>', "where --rtt holds the bytes: 'process' (in each driver process, no extra hop; not TLS) or 'proxy' (a latency proxy process between drivers and server) (default: process, or proxy for a run with a TLS bench)")
    .option('--floor', 'add the wire-floor reference client (driver `floor`) to the drivers')
    .option('--smoke', 'one short pass that checks: every bench of the run (the default set, or those named) on every driver, checks on, tiny sampling, no interval (a gate cannot fail on it: use --ci)')
    .option('--ci', `the preset for a CI gate: the design card's seven benches (or those named), ${PRESETS.ci.rounds} rounds in ${PRESETS.ci.processes} processes a row, so that every row has a paired interval and the run its resolution; about 80 s on a 2-core machine (docs/ci.md)`);
  return addMeasureOptions(cmd);
}

/** How windows are measured, where processes run, where results go: every measuring command's. */
export function addMeasureOptions(cmd) {
  cmd
    .option('-t, --time <seconds>', `measured time per bench and driver, split into --rounds windows (default ${PRESETS.default.time}, scaled with the rounds; --smoke ${PRESETS.smoke.time})`, positiveNumber('--time'))
    .option('-r, --rounds <n>', `rounds per bench: each gives every driver one window, in a fresh random order (default ${PRESETS.default.rounds}, up to ${MAX_ROUNDS_SCALE} × that in a run of fewer benches and drivers than the full run, which it stays shorter than; --smoke ${PRESETS.smoke.rounds})`, positiveInteger('--rounds'))
    .option('--precision <pct>', 'keep adding rounds (in batches) until every row\'s paired Δ interval (as the run reports it: the run\'s intervals hold together at 95 %) is within ± this many per cent of its reference, or --max-rounds: buys precision with time on a noisy host (rounds narrow the rounds\' part of an interval, not the spread between a row\'s processes: --processes does)', positiveNumber('--precision'))
    .option('--max-rounds <n>', 'the most rounds --precision may run per bench (default 8 × --rounds)', positiveInteger('--max-rounds'))
    .option('--lead <seconds>', `unmeasured lead-in at the start of every window, at most a third of its measured part (default ${PRESETS.default.lead})`, positiveNumber('--lead'))
    .option('--warmup <seconds>', `warm-up per bench and driver before its first window, shared among its processes, every result checked (default: ${PRESETS.default.warmup}, then each process on until its time per operation stops improving, a new process for at least ${NEW_PROCESS_WARMUP_S} s; a value given is run as given)`, positiveNumber('--warmup'))
    .option('--processes <n>', `processes each driver's row is measured in, taking the rounds in turn, so its figure averages over processes (default ${PRESETS.default.processes}; --smoke ${PRESETS.smoke.processes}); benches that keep figures of their own across windows use one`, positiveInteger('--processes'))
    .option('--cpus <placement>', "CPU placement: 'shared' (each driver's JavaScript thread and the embedded server on one CPU, the rest on the others), 'split' (drivers on one CPU, server on another) or 'none' (the scheduler decides) (default: shared; split with --rate, whose arrivals would otherwise wait behind the server's work on a shared CPU)", parsePlacement)
    .option('--wake <mode>', "CPU wake-up control while sampling: 'spin' (lowest-priority busy loops keep idle CPUs awake; 'spin:N' for N loops) or 'none' (default: none; spin with --rate)", parseWake)
    .option('--jit <mode>', "V8's background compiles: 'background' (they run while the driver process runs, as in any process; a long one may outlast the run) or 'wait' (each driver process waits for them after its warm-up and after each window, outside the measured parts: figures of the optimized code, at the cost of the waits)", parseJit, DEFAULT_JIT)
    .option('--replay', "client cost: each driver answered in its own process by the server's recorded replies (no socket, no server in the figure); replay sets are captured from the server first where missing, and kept in <out>/replay")
    .option('--count <what>', `with --replay: ${counterNames().map((name) => `'${name}' ${counterNamed(name).help}`).join('; ')} instead of timing it`, parseCount)
    .option('--jit-names', "with --count: name V8's JIT code (a driver's functions) in the kept profiles from V8's perf map; it adds about 0.4 % to a count, so compare pairs such runs only with each other")
    .option('--collected-start', "with --count instructions: each bench's worker collects its heap in full twice before the driver loads, a second heap state from which ci-driver counts a bench that moved again (compare pairs such runs only with each other)")
    .option('--recapture', 'with --replay: capture every replay set again from the server, even where one is stored')
    .option('--reinstall', "install the run's driver releases, and extract and install its git commits, again, even where the cache has them")
    .option('--latency', 'wide table: p50, p90, p99 and max latency, the window-to-window spread, and the cost per operation (client CPU, GC, server CPU)')
    .option('--json [file]', "also write the results JSON to a file ('-' or no value: stdout, which then carries only the JSON)")
    .option('-o, --out <dir>', 'directory for the results JSON', 'results')
    .option('-q, --quiet', 'no progress lines on stderr');
  return addConnectionOptions(cmd);
}

/** Where the server is (none of these: the embedded one), and --debug. */
export function addConnectionOptions(cmd) {
  return cmd
    .addOption(new Option('--host <host>', 'server host (a remote server: nothing is started)'))
    .addOption(new Option('--port <port>', 'server port'))
    .addOption(new Option('--user <user>', 'user name'))
    .addOption(new Option('--password <password>', 'password (prefer DB_PASSWORD: flags show up in the process list)'))
    .addOption(new Option('--database <name>', "the harness's own schema (created and used only by it)"))
    .addOption(new Option('--socket <path>', 'unix socket of the server'))
    .option('--debug', 'print stack traces on errors');
}
