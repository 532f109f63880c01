// The one reader of a command's options below its action. It resolves the run's plan once, deep-frozen:
// the settings the results record (each field in docs/results.schema.json; never a secret) and the choices
// they do not. What the run learns later goes in by settleSettings.
import { BENCHES, DEFAULT_BENCHES } from '../benchs/index.js';
import { BUILTIN_DRIVERS, assertDriverNames } from './drivers/index.js';
import { expandReleaseRanges } from './drivers/ranges.js';
import { expandCommitRanges } from './drivers/commit-ranges.js';
import { expandRuntimes } from './drivers/runtimes.js';
import { benchOptionSpecs, benchOptions } from './measuring/run/catalogue.js';
import { describeWake, runWake } from './measuring/host/wake.js';
import { defaultPlacement } from './common/placement.js';
import { connectionFlags } from './server/session.js';
import { countSettings, counterNamed } from './replay/counters/index.js';
import { usageError } from './common/errors.js';
import { driverProcessFlags } from './measuring/processes/launch.js';
import { FIXED_MALLOC_TUNABLES, addressLayout } from './measuring/processes/same-program.js';
import { REPLAY_MIN_BUDGET_S, REPLAY_RUN_TARGET_S } from './measuring/run/pace.js';
import { REPLAY_WARMUP_OPS, SMOKE_REPLAY_WARMUP_OPS, collectionPoint } from './measuring/figures/warm-up-lengths.js';
import { resolveNetwork } from './server/proxy/index.js';
import { DEFAULT_JIT } from './measuring/run/jit-mode.js';
import { windowLead } from './measuring/figures/window-sizing.js';
import { eachIntervalLevel } from './measuring/figures/paired-delta.js';
import { assertRateBenches, rateSettings } from './measuring/run/rate-passes.js';

/** Object.freeze, all the way down. Returns `value`. */
export function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The driver rows: --floor's row added, release ranges (fetched from the npm registry) and --runtimes expanded. */
async function expandDrivers(opts) {
  const asked = opts.floor && !opts.drivers.includes('floor') ? [...opts.drivers, 'floor'] : opts.drivers;
  assertDriverNames(asked, { overrideFairness: opts.overrideFairness });
  const { specs: released, ranges } = await expandReleaseRanges(asked);
  const { specs, ranges: commitRanges } = expandCommitRanges(released, { log: opts.quiet ? () => {} : (line) => process.stderr.write(`${line}\n`) });
  const drivers = expandRuntimes(specs, opts.runtimes, { only: (base) => base === 'bun-sql' || base === 'floor' });
  assertDriverNames(drivers, { overrideFairness: opts.overrideFairness });
  // A --from run's ranges come with its drivers, already expanded.
  const taken = [...ranges.map(({ spec, releases }) => ({ spec, releases })), ...commitRanges];
  const releaseRanges = taken.length ? taken : opts.releaseRanges;
  return { drivers, releaseRanges };
}

/** The run's plan, frozen: its settings and the choices the results do not record. */
export async function resolveRun(opts, benches) {
  if (opts.collectedStart && !(opts.count && counterNamed(opts.count).tool)) {
    throw usageError('--collected-start is a second heap state for a count under Valgrind: it needs --replay --count instructions (or cycles)', 'add --replay --count instructions, or drop --collected-start');
  }
  const { drivers, releaseRanges } = await expandDrivers(opts);
  const asked = { ...opts, drivers, releaseRanges };
  const { settings } = resolveSettings(asked, benches);
  const values = benchOptions(opts, [...new Set([...BENCHES, ...benches])]);
  // A bench's option that asks to be recorded is, in a timed run (a count hands the benches no options).
  const recorded = opts.count ? [] : benchOptionSpecs(benches).filter((o) => o.record).map((o) => [o.key, values[o.key]]);
  const openSchedule = Boolean(opts.rate);
  return deepFreeze({
    settings: {
      ...settings,
      // What makes two counts comparable (compare refuses runs that differ in any of it).
      ...(opts.count ? { count: countSettings(counterNamed(opts.count), { jitNames: Boolean(opts.jitNames), collectedStart: Boolean(opts.collectedStart) }) } : {}),
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...Object.fromEntries(recorded),
    },
    connection: connectionFlags(opts),
    // Counting instructions times nothing: its processes run side by side on every CPU, unpinned.
    cpus: opts.count ? 'none' : opts.cpus ?? defaultPlacement({ openSchedule }),
    wake: runWake(opts.wake, { openSchedule }),
    benchOptions: values,
    output: { out: opts.out, json: opts.json, quiet: Boolean(opts.quiet), latency: opts.latency },
    explicitBaseline: opts.baseline,
    threshold: opts.threshold,
    startAt: opts.startAt,
    recapture: Boolean(opts.recapture),
    reinstall: Boolean(opts.reinstall),
    overrideFairness: Boolean(opts.overrideFairness),
  });
}

/** The plan's settings with what the run learnt later (baseline, the stage's placement, network, replay sets…): a new frozen object. */
export function settleSettings(settings, learnt) {
  const { replay, count, ...rest } = learnt;
  return deepFreeze({
    ...settings,
    ...rest,
    ...(settings.replay && replay ? { replay: { ...settings.replay, ...replay } } : {}),
    ...(settings.count && count ? { count: { ...settings.count, ...count } } : {}),
  });
}

// budget: the most seconds a bench's rounds may take per driver, so that a contended host does not stretch
// the run (docs/history/2026-11-24-how-a-bench-is-measured.md#time-budget); processes: two of one driver
// differ by a few per cent, so each row takes its rounds in turn in several (docs/measuring.md, "Processes differ").
export const PRESETS = {
  default: { time: 2.3, lead: 0.005, warmup: 0.2, rounds: 120, budget: 3.2, processes: 4 },
  smoke: { time: 0.1, lead: 0.01, warmup: 0.05, rounds: 2, processes: 1 },
  // Enough rounds for every row's paired interval, short enough for a shared 2-core runner (docs/ci.md, "The CI preset").
  ci: { time: 1.92, lead: 0.005, warmup: 0.2, rounds: 96, budget: 2.6, processes: 4 },
  // Windows of a quarter second, so that an open schedule's queue (and a backlog past the maximum) builds in each.
  rate: { time: 6, lead: 0.05, warmup: 0.2, rounds: 24, processes: 4 },
};

// A replayed window's lead-in (no server or socket to wake) and budget keep a full --replay run within
// 90 s (docs/history/2026-11-26-replay-timed.md#2026-11-26-late-morning-warm-ups-two-at-a-time-a-run-within-90-s-issue-33).
export const REPLAY_LEAD_S = 0.002;
export const REPLAY_BUDGET_S = 2.7;

const runRows = (opts) => (opts.drivers?.length ?? 1) + (opts.floor ? 1 : 0);
const runLevels = (opts) => [].concat(opts.concurrency ?? 1).length;

/** The level the run's Δ intervals will be taken at (paired-delta.js), from the Δs it plans to report. */
function plannedIntervalLevel(opts, benches) {
  return eachIntervalLevel(benches.length * Math.max(1, runRows(opts) - 1) * runLevels(opts));
}

// A run of fewer cells than a full run gets whole multiples of the rounds, time and budget, taking about as
// long: an interval narrows with the square root of the rounds (docs/history/2026-11-24-how-a-bench-is-measured.md#figures-the-codes-comments-held).
export const FULL_RUN_CELLS = DEFAULT_BENCHES.length * BUILTIN_DRIVERS.length;
// The design card's seven benches on the three drivers: what REPLAY_RUN_TARGET_S (pace.js) times.
export const REPLAY_FULL_RUN_CELLS = 7 * BUILTIN_DRIVERS.length;
export const MAX_ROUNDS_SCALE = 4;

/** Pure: how many times the default rounds a run of `cells` cells gets (1 to MAX_ROUNDS_SCALE), against a full run of `fullRun`. */
export function roundsScale(cells, { fullRun = FULL_RUN_CELLS } = {}) {
  return Math.max(1, Math.min(MAX_ROUNDS_SCALE, Math.floor(fullRun / Math.max(1, cells))));
}

/** Settings recorded in the results (never connection secrets). */
export function runSettings(opts, benches) {
  if (opts.smoke && opts.ci) throw usageError('--smoke and --ci are two presets: choose one', '--ci for a gate that can fail (every row with an interval), --smoke for a pass that only checks');
  const preset = opts.smoke ? PRESETS.smoke : opts.ci ? PRESETS.ci : opts.rate ? PRESETS.rate : PRESETS.default;
  const replayTimed = opts.replay && !opts.smoke;
  // `aa` keeps a full run's lengths (scaleSmallRuns: false): the resolution it reports is a full run's.
  const defaultLengths = !opts.smoke && opts.rounds === undefined && opts.time === undefined && !opts.precision;
  // A preset's own lengths are run as they are: --ci's are sized for its seven benches, not scaled.
  const scalable = defaultLengths && !opts.ci;
  const cells = benches.length * runRows(opts) * runLevels(opts);
  const fullRun = opts.replay ? REPLAY_FULL_RUN_CELLS : FULL_RUN_CELLS;
  const scale = scalable && !opts.rate && opts.scaleSmallRuns !== false ? roundsScale(cells, { fullRun }) : 1;
  const scaled = (x) => Math.round(x * scale * 1000) / 1000; // 2.3 × 3 is 6.9, not 6.8999999999999995
  const rounds = opts.rounds ?? preset.rounds * scale;
  const benchS = opts.time ?? scaled(preset.time);
  return {
    mode: opts.smoke ? 'smoke' : opts.ci ? 'ci' : 'default',
    drivers: opts.drivers,
    ...(opts.releaseRanges ? { releaseRanges: opts.releaseRanges } : {}),
    baseline: opts.baseline,
    benches: benches.map((b) => b.name),
    ...ownBenchSettings(opts, benches),
    concurrency: opts.concurrency,
    rounds,
    ...(opts.precision ? { precision: opts.precision, maxRounds: opts.maxRounds ?? 8 * rounds, precisionLevel: plannedIntervalLevel(opts, benches) } : {}),
    time: benchS,
    roundsScale: scale,
    // Only the default lengths have a budget: rounds or a time asked for are run in full.
    budget: defaultLengths && preset.budget ? scaled(replayTimed && !opts.ci ? REPLAY_BUDGET_S : preset.budget) : null,
    // A timed replay run of default lengths keeps to a time target (pace.js): its rounds give way.
    ...(replayTimed && scalable && preset.budget ? { pace: { targetS: REPLAY_RUN_TARGET_S, minBudgetS: REPLAY_MIN_BUDGET_S } } : {}),
    lead: windowLead(opts.lead ?? (replayTimed ? REPLAY_LEAD_S : preset.lead), benchS / rounds),
    driverProcessFlags: driverProcessFlags({ replay: opts.replay }),
    warmup: opts.warmup ?? preset.warmup,
    // A default warm-up runs on until the driver is up to speed (warm-up-loops.js).
    warmupSettles: !opts.smoke && opts.warmup === undefined,
    processes: opts.processes ?? preset.processes,
    workers: opts.workers ?? 1,
    wake: describeWake(runWake(opts.wake, { openSchedule: Boolean(opts.rate) })),
    jit: opts.jit ?? DEFAULT_JIT,
    callTimeoutMs: 30000,
  };
}

/** The flags of a run's own benches (--bench-file, --sql and theirs) as given, and their names: what --from runs again. */
function ownBenchSettings(opts, benches) {
  if (!opts.benchFile?.length && !opts.sql?.length) return {};
  const ownNames = benches.filter((b) => !BENCHES.includes(b)).map((b) => b.name);
  return { ownBenches: { benchFile: opts.benchFile ?? [], sql: opts.sql ?? [], setup: opts.setup ?? null, prepared: Boolean(opts.prepared), allowWrites: Boolean(opts.allowWrites), ownNames } };
}

/** runSettings's, with the network, --replay's and --rate's; options that cannot go together are refused here. */
export function resolveSettings(opts, benches) {
  const base = runSettings(opts, benches);
  // The driver processes cannot hold TLS bytes (drivers/held-sockets.js): a run with a TLS bench goes through the proxy.
  const tls = benches.filter((b) => b.requires?.includes('tls')).map((b) => b.name);
  const network = resolveNetwork({ rtt: opts.rtt, network: opts.network, via: opts.rttVia ?? (tls.length ? 'proxy' : undefined) });
  if (network.via === 'process' && tls.length) {
    throw usageError(`${tls.join(', ')}: --rtt-via process cannot hold TLS bytes; use --rtt-via proxy (the default for a run with a TLS bench)`);
  }
  if (opts.recapture && !opts.replay) throw usageError('--recapture is for --replay runs', 'add --replay');
  if (opts.count && !opts.replay) throw usageError(`--count ${opts.count} counts the replayed client cost: it needs --replay`, `add --replay`);
  if (opts.jitNames && !opts.count) throw usageError('--jit-names names the JIT code of a count\'s kept profiles: it needs --replay --count instructions', 'add --replay --count instructions, or drop --jit-names');
  if (opts.replay && network.rttMs > 0) throw usageError('--replay measures the driver with no network: it cannot take --rtt or --network', 'drop --rtt/--network, or --replay');
  if ((opts.schedule || opts.latencyLimit) && !opts.rate) throw usageError(`${opts.schedule ? '--schedule' : '--latency-limit'} is for --rate runs`, 'add --rate');
  if (opts.rate) {
    if (opts.replay) throw usageError('--rate loads a server on a schedule: it cannot take --replay', 'drop --rate or --replay');
    assertRateBenches(benches);
  }
  const settings = {
    ...base,
    network: { name: network.name, rttMs: network.rttMs, ...(network.via ? { via: network.via } : {}) },
    ...(opts.replay ? { replay: replaySettings(opts) } : {}),
    ...(opts.rate ? { rate: rateSettings(opts) } : {}),
  };
  return { settings, network };
}

/** --replay's settings: the figure, and for a timed run what makes its rows' processes run the same program. */
function replaySettings(opts) {
  if (opts.count) return { figure: opts.count };
  const warmupOps = opts.smoke ? SMOKE_REPLAY_WARMUP_OPS : REPLAY_WARMUP_OPS;
  return {
    figure: 'client cost',
    // Timed, a row's processes run the same program on the same operations (same-program.js, warm-up-loops.js).
    warmupOps,
    warmupCollectionAfterOps: collectionPoint(warmupOps),
    addressLayout: addressLayout(),
    mallocTunables: FIXED_MALLOC_TUNABLES,
  };
}
