// What every count under Valgrind shares: the counted process's V8 flags and malloc settings, the
// marker that bounds its windows, and Valgrind being there. What one counter adds is in counters/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installError } from '../common/errors.js';
import { JIT_HOOK_FLAG, driverProcessFlags } from '../measuring/processes/launch.js';
import { FIXED_MALLOC_TUNABLES } from '../measuring/processes/same-program.js';

// As a replayed driver process runs V8, without the hook that waits for compiles.
export const COUNT_V8_FLAGS = Object.freeze(driverProcessFlags({ replay: true }).filter((f) => f !== JIT_HOOK_FLAG));

// No escape analysis: on mysql2's hundred-column row parsers it was most of a row's time under Valgrind
// (docs/history/2026-11-28-gate.md#escape-analysis-off-under-valgrind-the-same-day-third-session).
// The old generation may grow a hundredfold (--predictable-gc-schedule's 30 % left out), so no full
// collection falls in a warm-up or window (docs/history/2026-11-29-gate-between-commits.md).
export const HEAP_GROWING_FLAG = '--heap-growing-percent=10000';
export const VALGRIND_V8_FLAGS = Object.freeze([...COUNT_V8_FLAGS.filter((f) => f !== '--predictable-gc-schedule'), '--no-turbo-escape', HEAP_GROWING_FLAG]);

// The windows' marker: the tool dumps (and zeroes) its counters on entering this libuv function,
// which os.getPriority() calls and nothing else in a driver process does.
export const MARKER = 'uv_os_getpriority';

// A thread cache deep enough for what an operation frees (docs/history/2026-11-27-twins.md), and an
// arena per worker thread, or threads would share arenas as lock contention had it.
export const COUNT_MALLOC_TUNABLES = `${FIXED_MALLOC_TUNABLES}:glibc.malloc.tcache_count=2000:glibc.malloc.arena_max=64`;

// One thread: start-up reads modules through the pool, and with several their order, and so the heap's,
// varied (docs/history/2026-11-27-bisect.md#one-thread-in-libuvs-pool).
export const COUNT_THREAD_POOL = 1;
// require() where this Node can require ES modules (count-entry.cjs), so no read interleaves with
// start-up's other work (docs/history/2026-11-27-cycles.md#modules-read-in-one-order).
export const countModuleLoading = () => (process.features.require_module ? 'require' : 'import');

export function valgrindVersion() {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.js', import.meta.url));

/** Valgrind's version, or one line saying how to get it (exit 5); under `npm run benchmark` it is installed first. */
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
