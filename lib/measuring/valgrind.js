// How an instruction count is taken (--count instructions, replay/count.js runs it): the V8 flags and
// Valgrind arguments of the counted process, the noise floor of a count, and Valgrind being there.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setupError } from '../common/errors.js';
import { DRIVER_PROCESS_FLAGS } from './driver-handle.js';
import { JIT_HOOK_FLAG } from './jit.js';

// V8's determinism flags (as CodSpeed runs JavaScript under Valgrind): no concurrent compiles or GC
// threads whose timing would change what the main thread does, a fixed GC schedule, fixed seeds
// (hash tables, Math.random: every process draws the same parameters), and no GC or compile work
// started by a timer (incremental-marking and scavenge tasks, the memory reducer), which under Valgrind
// fell at a different operation on every run: mariadb's count moved by up to 18 % between two runs
// until these were off. No incremental marking either: its steps are sized by the marking speed it
// measures in time, so a mark-compact finished in one window or another from run to run (mariadb's
// `do` read 23,131 and 25,481); atomic, it falls at the same operation every time. No allocation-site
// pretenuring: its decisions rest on what start-up allocated before the first collection, which ES
// modules' asynchronous loading varies; with it, mysql's `batch` settled in one of three steady states
// 0.27 % apart (four runs, 2026-11-25), without it four runs read 322,003 to 322,020. With the heap
// settings every driver process has.
export const COUNT_V8_FLAGS = Object.freeze([
  ...DRIVER_PROCESS_FLAGS.filter((f) => f !== JIT_HOOK_FLAG),
  '--predictable', '--predictable-gc-schedule', '--single-threaded', '--hash-seed=1', '--random-seed=1',
  '--no-incremental-marking', '--no-incremental-marking-task', '--no-minor-gc-task', '--no-memory-reducer',
  '--no-concurrent-recompilation', '--no-concurrent-osr', '--no-concurrent-sparkplug', '--expose-gc',
  '--no-allocation-site-pretenuring',
]);

// The windows' marker: callgrind dumps (and zeroes) its counters on entering this libuv function,
// which os.getPriority() calls and nothing else in a driver process does.
export const MARKER = 'uv_os_getpriority';
export const VALGRIND_ARGS = Object.freeze(['--tool=callgrind', '--instr-atstart=no', `--dump-before=${MARKER}`]);

// Run-to-run spread of instructions per operation measured on this VM (docs/measuring-history.md,
// "Instruction counts"): a Δ or a change between runs within it is not called. mariadb's
// select_100_cols, whose first window holds a collection, read 494,942 to 495,347 in three runs
// (0.08 %, 2026-11-26); most rows repeat within 0.01 %.
export const COUNT_NOISE_FLOOR_PCT = 0.1;

/** Valgrind's version ('valgrind-3.19.0'), or null when it is not installed. */
export function valgrindVersion() {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.js', import.meta.url));

/**
 * Valgrind there, or one line saying how to get it (exit 3). Under the README's `npm run benchmark`
 * a missing one is installed by the project's setup script first (root with apt-get), as the server is.
 */
export function assertValgrind(env = process.env) {
  let version = valgrindVersion();
  if (!version && env.npm_lifecycle_event === 'benchmark') {
    spawnSync(process.execPath, [SETUP_SCRIPT, '--valgrind'], { stdio: ['ignore', 2, 2] });
    version = valgrindVersion();
  }
  if (version) return version;
  throw setupError('valgrind was not found: --count instructions runs each row under it',
    'install the Debian/Ubuntu package valgrind (as root: npm run setup -- --valgrind, or apt-get install valgrind)');
}
