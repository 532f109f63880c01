// The one reader of a command's options (`opts`) below its action: the drivers expanded, the settings
// the results record, and the choices they do not record (where the results go, which server, the
// placement asked for). Resolved once and deep-frozen; what only the run learns later (the baseline's
// name, the stage's placement and network) is added once, by settleSettings, into a new frozen object.
import { BENCHES } from '../benchs/index.js';
import { assertDriverNames } from './drivers/index.js';
import { expandReleaseRanges } from './drivers/ranges.js';
import { expandCommitRanges } from './drivers/commit-ranges.js';
import { expandRuntimes } from './drivers/runtimes.js';
import { resolveSettings } from './measuring/planning/settings.js';
import { benchOptionSpecs, benchOptions } from './measuring/planning/catalogue.js';
import { runWake } from './measuring/host/wake.js';
import { defaultPlacement } from './common/placement.js';
import { connectionFlags } from './server/session.js';
import { countSettings, counterNamed } from './replay/counters/index.js';
import { usageError } from './common/errors.js';

/**
 * What the results record of a run (results.settings), every field.
 * @typedef {object} Settings
 * @property {'default'|'ci'|'smoke'} mode the preset
 * @property {string[]} drivers the driver specs, release ranges and runtimes expanded
 * @property {object[]} [releaseRanges] each range asked for ({ spec, releases }; a commit range { spec, commits, subjects, skipped })
 * @property {string} baseline the row the Δs compare against (its name once the drivers are loaded)
 * @property {string[]} benches the benches' names
 * @property {object} [ownBenches] --bench-file, --sql and their flags, as given (what --from runs again)
 * @property {number|number[]} concurrency the level, or the levels (--concurrency 1,4)
 * @property {number} rounds the rounds of interleaved windows per bench
 * @property {number} [precision] --precision: the Δ half-width (%) the rounds go on for
 * @property {number} [maxRounds] with --precision, the most rounds
 * @property {number} [precisionLevel] with --precision, the level its intervals are taken at
 * @property {number} time measured seconds per bench and driver (split into the rounds' windows)
 * @property {number} roundsScale how many times the preset's rounds a small run gets
 * @property {number|null} budget the most seconds per driver a bench's rounds may take
 * @property {object} [pace] a timed --replay run's time target ({ targetS, minBudgetS })
 * @property {number} lead the unmeasured lead-in of each window (s)
 * @property {string[]} driverProcessFlags Node's flags for the driver processes
 * @property {number} warmup warm-up seconds per row
 * @property {boolean} warmupSettles whether a warm-up runs on until the driver is up to speed
 * @property {number} processes processes per row, taking the rounds in turn
 * @property {number} workers processes sharing each window (--workers)
 * @property {string} wake the wake mode (none, spin:N)
 * @property {string} jit background or wait
 * @property {number} callTimeoutMs the longest a call to a driver process may take
 * @property {object} network { name, rttMs, via?, and from the stage: proxy?, calibration?, holdMs?, what was added }
 * @property {object} [replay] --replay: the figure, and a timed run's warm-up and layout; from the stage, its sets
 * @property {object} [rate] --rate: { rates, schedule, latencyLimitMs, seed }
 * @property {object} [count] --count: the counter's settings, and from the stage its primer
 * @property {{ index: number, count: number }} [shard] --shard
 * @property {object} placement from the stage: where drivers, server and harness run
 * @property {string} [startAt] --start-at, ISO 8601
 * @property {string} schema the harness's schema on the server
 * (and each option a run's bench declares with `record`, under its key)
 */

/**
 * A run's plan: its settings and the choices the results do not record.
 * @typedef {object} RunPlan
 * @property {Settings} settings what the results record (without what the stage adds)
 * @property {object} connection the server's connection flags (host, port, user, password, database, socket)
 * @property {string} cpus the placement asked for (shared, split or none)
 * @property {{ mode: string, spinners: number }} wake the wake mode that runs
 * @property {object} benchOptions every bench option's value (ctx.options)
 * @property {{ out: string, json: (boolean|string|undefined), quiet: boolean, latency: boolean }} output where the results and the report go
 * @property {string} [explicitBaseline] --baseline as given
 * @property {number} [threshold] --threshold (%)
 * @property {number} [startAt] --start-at (ms since the epoch)
 * @property {boolean} recapture --recapture
 * @property {boolean} reinstall --reinstall
 * @property {boolean} overrideFairness --override-fairness
 */

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
  // A --from run's ranges come with its drivers, already expanded. A commit range keeps its commits, in order.
  const taken = [...ranges.map(({ spec, releases }) => ({ spec, releases })), ...commitRanges];
  const releaseRanges = taken.length ? taken : opts.releaseRanges;
  return { drivers, releaseRanges };
}

/** Resolve a run's options once: the frozen RunPlan. */
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

/**
 * The settings a run measures with and records, settled once: the plan's, with what the run learnt
 * after resolving them (`learnt`: the baseline's name, the stage's placement, network, replay sets
 * and count primer, the start time, the schema). A new frozen object; the plan's is left as it was.
 */
export function settleSettings(settings, learnt) {
  const { replay, count, ...rest } = learnt;
  return deepFreeze({
    ...settings,
    ...rest,
    ...(settings.replay && replay ? { replay: { ...settings.replay, ...replay } } : {}),
    ...(settings.count && count ? { count: { ...settings.count, ...count } } : {}),
  });
}
