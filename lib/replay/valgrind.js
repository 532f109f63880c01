// What every count under Valgrind shares (--count, replay/count.js runs it): the counted process's
// V8 flags and malloc settings, the marker that bounds its windows, and Valgrind being there. What
// one counter adds (its tool's arguments, how its windows are read, its noise floor) is its entry in
// counters/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installError } from '../common/errors.js';
import { JIT_HOOK_FLAG, driverProcessFlags } from '../measuring/processes/launch.js';
import { FIXED_MALLOC_TUNABLES } from '../measuring/processes/same-program.js';

// The counted process runs V8 as a replayed driver process does (its heap settings, V8's determinism
// flags, gc() for count-bench.js), without the hook that waits for compiles.
export const COUNT_V8_FLAGS = Object.freeze(driverProcessFlags({ replay: true }).filter((f) => f !== JIT_HOOK_FLAG));

// A process under Valgrind compiles without TurboFan's escape analysis, which on mysql2's generated
// hundred-column row parsers was most of a row's time under Valgrind
// (docs/history/2026-11-28-gate.md#escape-analysis-off-under-valgrind-the-same-day-third-session).
// Its old generation may grow a hundredfold before V8 collects it in full, so that no full collection
// falls in a bench's warm-up or windows: where one fell moved with code the bench never runs, and each
// threw away optimized code that embedded an object it freed
// (docs/history/2026-11-29-gate-between-commits.md). --predictable-gc-schedule, which fixes that growth
// at 30 %, is left out; the young generation keeps the driver processes' fixed size.
export const HEAP_GROWING_FLAG = '--heap-growing-percent=10000';
export const VALGRIND_V8_FLAGS = Object.freeze([...COUNT_V8_FLAGS.filter((f) => f !== '--predictable-gc-schedule'), '--no-turbo-escape', HEAP_GROWING_FLAG]);

// The windows' marker: the tool dumps (and zeroes) its counters on entering this libuv function,
// which os.getPriority() calls and nothing else in a driver process does.
export const MARKER = 'uv_os_getpriority';

// glibc's malloc in a counted process: the timed replay's fixed thresholds (same-program.js), and a
// thread cache deep enough to hold what an operation frees, which with glibc's default spilled into
// bins whose state depended on the process's history (docs/history/2026-11-27-twins.md).
// Arenas enough that every worker thread of a row's process gets one of its own (its benches' workers
// stay parked, each holding its arena): past glibc's limit, threads would share arenas as lock
// contention had it.
export const COUNT_MALLOC_TUNABLES = `${FIXED_MALLOC_TUNABLES}:glibc.malloc.tcache_count=2000:glibc.malloc.arena_max=64`;

// libuv's thread pool in a counted process: one thread. Start-up reads the harness's modules through
// the pool, and with several threads their order of completion, and so the heap's, varied from
// process to process (docs/history/2026-11-27-bisect.md#one-thread-in-libuvs-pool).
export const COUNT_THREAD_POOL = 1;
// How a counted process loads the harness's modules after its thread pool's reads were made one at a
// time: with require() where this Node can require ES modules (count-entry.cjs), so that no read
// interleaves with start-up's other work and leaves the heap different from process to process;
// else with import() (docs/history/2026-11-27-cycles.md#modules-read-in-one-order).
export const countModuleLoading = () => (process.features.require_module ? 'require' : 'import');

/** Valgrind's version ('valgrind-3.19.0'), or null when it is not installed. */
export function valgrindVersion() {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.js', import.meta.url));

/**
 * Valgrind there, or one line saying how to get it (exit 5); `what` is the counter that needs it.
 * Under the README's `npm run benchmark` a missing one is installed by the project's setup script
 * first (root with apt-get), as the server is.
 */
export function assertValgrind(env = process.env, what = 'instructions') {
  let version = valgrindVersion();
  if (!version && env.npm_lifecycle_event === 'benchmark') {
    spawnSync(process.execPath, [SETUP_SCRIPT, '--valgrind'], { stdio: ['ignore', 2, 2] });
    version = valgrindVersion();
  }
  if (version) return version;
  throw installError(`valgrind was not found: --count ${what} runs each row under it`,
    'install the Debian/Ubuntu package valgrind (as root: npm run setup -- --valgrind, or apt-get install valgrind)');
}
