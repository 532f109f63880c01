// How an instruction count is taken (--count instructions, replay/count.js runs it): the V8 flags,
// malloc settings and Valgrind arguments of the counted process, the noise floor of a count, and
// Valgrind being there.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installError } from '../common/errors.js';
import { DRIVER_PROCESS_FLAGS, JIT_HOOK_FLAG } from './processes/launch.js';
import { DETERMINISTIC_V8_FLAGS, FIXED_MALLOC_TUNABLES } from './processes/same-program.js';

// The counted process runs V8 deterministically (same-program.js), with the heap settings every
// driver process has, and may call gc() (count-process.js).
export const COUNT_V8_FLAGS = Object.freeze([
  ...DRIVER_PROCESS_FLAGS.filter((f) => f !== JIT_HOOK_FLAG), ...DETERMINISTIC_V8_FLAGS, '--expose-gc',
]);

// The windows' marker: callgrind dumps (and zeroes) its counters on entering this libuv function,
// which os.getPriority() calls and nothing else in a driver process does.
export const MARKER = 'uv_os_getpriority';
export const VALGRIND_ARGS = Object.freeze(['--tool=callgrind', '--instr-atstart=no', `--dump-before=${MARKER}`]);

// glibc's malloc in a counted process: the timed replay's fixed thresholds (same-program.js), and a
// thread cache deep enough to hold what an operation frees. With glibc's default of 7 chunks a size,
// what an operation freed spilled into the bins, whose state depended on the process's history: the
// same set of mysql2's `pipelining` counted in one of three steady states, 1,026,545, 1,031,75x or
// 1,042,0xx instructions/op (6 processes, 2026-11-27), all of the difference in _int_malloc,
// _int_free and unlink_chunk; with tcache_count=2000, six processes read 1,026,198 to 1,026,293.
export const COUNT_MALLOC_TUNABLES = `${FIXED_MALLOC_TUNABLES}:glibc.malloc.tcache_count=2000`;

// Run-to-run spread of instructions per operation measured on this VM (docs/measuring-history.md,
// "Instruction counts"): a Δ or a change between runs within it is not called. mariadb's
// select_100_cols, whose first window holds a collection, read 494,942 to 495,347 in three runs
// (0.08 %, 2026-11-26); most rows repeat within 0.01 %.
export const COUNT_NOISE_FLOOR_PCT = 0.1;

// Benches whose count moves more than that between two processes of the same code and replay set,
// measured here (docs/replay.md, "Two installs of the same code"): mysql2's `execute` read 4,619,547
// to 4,758,766 instructions/op in 17 processes whose windows were steady (3.0 %), as V8 tiered its
// generated row parser up at different operations. A Δ or a change on that bench within this is not called.
export const COUNT_BENCH_FLOORS_PCT = Object.freeze({ execute: 3.5 });

/** The noise floor of a bench's count in a run's settings.count (the bench's own where it has one). */
export const countFloorPct = (count, bench) => count?.benchFloorsPct?.[bench] ?? count?.noiseFloorPct ?? 0;

// A window that counts this many times the row's median window holds a one-off event, not the
// row's steady cost: mysql2's `execute` had windows of 16.9 billion instructions against 2.4 billion,
// 70 % of it in TurboFan recompiling the generated row parser, in 2 to 3 processes of 6. Such a row is
// counted again in a new process, and marked unsteady (not judged) when that one has one too.
export const UNSTEADY_WINDOW_RATIO = 1.5;

/** Pure: does a row's windows' largest exceed UNSTEADY_WINDOW_RATIO × their median? */
export function unsteadyWindows(windows) {
  const sorted = [...windows].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return sorted[sorted.length - 1] > UNSTEADY_WINDOW_RATIO * median;
}

/** Valgrind's version ('valgrind-3.19.0'), or null when it is not installed. */
export function valgrindVersion() {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const SETUP_SCRIPT = fileURLToPath(new URL('../../scripts/setup.js', import.meta.url));

/**
 * Valgrind there, or one line saying how to get it (exit 5). Under the README's `npm run benchmark`
 * a missing one is installed by the project's setup script first (root with apt-get), as the server is.
 */
export function assertValgrind(env = process.env) {
  let version = valgrindVersion();
  if (!version && env.npm_lifecycle_event === 'benchmark') {
    spawnSync(process.execPath, [SETUP_SCRIPT, '--valgrind'], { stdio: ['ignore', 2, 2] });
    version = valgrindVersion();
  }
  if (version) return version;
  throw installError('valgrind was not found: --count instructions runs each row under it',
    'install the Debian/Ubuntu package valgrind (as root: npm run setup -- --valgrind, or apt-get install valgrind)');
}
