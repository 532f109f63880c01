// --replay --count instructions: each row's client cost counted by Valgrind (cachegrind, no cache
// simulation) instead of timed. Per bench and driver, two processes (count-process.js) replay the
// same set with V8's determinism flags and the same warm-up, and differ only in how many operations
// follow it (N, then 2N): the difference of their instruction totals over N is the instructions per
// operation, with start-up, loading, warm-up and exit cancelled. Why two processes and not a toggle
// around the measured part: Valgrind's client requests are not reachable from JavaScript without a
// native module, and the difference needs nothing but the totals Valgrind prints. Counts do not
// depend on the host's load, so both processes of a pair run at once, one per CPU.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DRIVER_PROCESS_FLAGS, DRIVER_PROCESS_TZ } from '../drivers/driver-handle.js';
import { JIT_HOOK_FLAG } from '../measuring/jit.js';
import { notApplicableReason, planFor } from '../measuring/plan.js';
import { setupError } from '../cli/errors.js';
import { decodeConversation, readSet } from './sets.js';

const CHILD = fileURLToPath(new URL('./count-process.js', import.meta.url));

// V8's determinism flags (as CodSpeed runs JavaScript under Valgrind): no concurrent compiles or GC
// threads whose timing would change what the main thread does, a fixed GC schedule, fixed seeds
// (hash tables, Math.random: every process draws the same parameters). With the heap settings every
// driver process has.
export const COUNT_V8_FLAGS = Object.freeze([
  ...DRIVER_PROCESS_FLAGS.filter((f) => f !== JIT_HOOK_FLAG),
  '--predictable', '--predictable-gc-schedule', '--single-threaded', '--hash-seed=1', '--random-seed=1',
]);
export const VALGRIND_ARGS = Object.freeze(['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null']);

// Run-to-run spread of instructions per operation measured on this VM (docs/measuring-history.md,
// "Instruction counts"): a Δ or a change between runs within it is not called.
export const COUNT_NOISE_FLOOR_PCT = 0.05;

const VALGRIND_TIMEOUT_MS = 600000;

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

/**
 * How many operations a pair's processes differ by (N) and run before (W = 4N), from the bytes a
 * replayed operation moves (sent and received, from the set): a few hundred million instructions
 * in N whatever the bench, far above the ~100,000 a Valgrind total varies by from run to run, and
 * the same W and N on every run of the same set (sized from a timing, W and N flipped between two
 * runs in 3 of 21 rows, and those rows moved by 0.7-15 %: a count depends on where its window lies
 * until the driver is fully warm). W + N covers V8's tiering: mysql2's execute was still getting
 * cheaper 2,000 operations in (422k instructions/op) and steady from 5,000 (356k).
 */
export function sizeCount(recording) {
  const loop = recording.steps.slice(recording.cycleFrom);
  const ops = Math.max(1, recording.cycleOps ?? recording.ops - 1);
  const bytesPerOp = loop.reduce((n, s) => n + s.reply.length + (s.sent ?? 0), 0) / ops;
  const n = Math.max(256, Math.min(8192, 2 ** Math.round(Math.log2(12e6 / (bytesPerOp + 300)))));
  return { warmup: 4 * n, ops: n };
}

/** The instruction total Valgrind printed on stderr ("I refs: 1,234"), or null. */
export function parseInstructions(stderr) {
  const m = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  return m ? Number(m[1].replace(/,/g, '')) : null;
}

/** One count process under Valgrind; resolves to { instructions, result } or rejects with the reason. */
function countOnce(job, { live, signal }) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', [...VALGRIND_ARGS, process.execPath, ...COUNT_V8_FLAGS, CHILD, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TZ: DRIVER_PROCESS_TZ },
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-20000); });
    const timer = setTimeout(() => child.kill('SIGKILL'), VALGRIND_TIMEOUT_MS);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => reject(new Error(`cannot run valgrind: ${err.message}`)));
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      live.delete(child);
      let result = null;
      try { result = JSON.parse(stdout.trim().split('\n').pop()); } catch { /* none */ }
      if (result && !result.ok) return reject(new Error(result.error));
      const instructions = parseInstructions(stderr);
      if (code !== 0 || !result || instructions === null) {
        const last = stderr.split('\n').map((l) => l.replace(/^==\d+==\s?/, '').trim()).filter(Boolean).slice(-1)[0] ?? '';
        return reject(new Error(`the count process under valgrind ${sig ? `was killed (${sig})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`));
      }
      resolve({ instructions, result });
    });
  });
}

/**
 * Count one bench on one driver: two processes at once (warm-up then N, warm-up then 2N operations).
 * Returns a row: { instructionsPerOp, instructions: { ops, warmup, totals } } or a failed one.
 */
async function countRow({ bench, driver, context, file, target, live, signal, smoke }) {
  const base = { spec: driver.loadSpec ?? driver.name, bench: bench.name, set: file, context, target };
  const sized = sizeCount(decodeConversation(readSet(file)));
  // --smoke: an eighth of the operations, warm-up as long: that the count runs, not a figure to keep.
  const { warmup, ops } = smoke ? { warmup: Math.max(64, sized.ops / 8), ops: Math.max(64, sized.ops / 8) } : sized;
  const job = (n) => ({ ...base, warmup, ops: n });
  const [one, two] = await Promise.all([countOnce(job(ops), { live, signal }), countOnce(job(2 * ops), { live, signal })]);
  const perOp = (two.instructions - one.instructions) / ops;
  return {
    driver: driver.name,
    protocol: one.result.protocol,
    ok: true,
    status: 'ok',
    error: null,
    instructionsPerOp: Math.round(perOp),
    instructions: { ops, warmup, totals: [one.instructions, two.instructions] },
  };
}

/**
 * Count every bench × driver of a replay run into results.benches (the benches as the replay stage
 * made them: each with its rows' sets). Rows fail alone; nothing is left running, also on abort.
 */
export async function countRun({ benches, drivers, results, context, target, signal, progress, smoke = false }) {
  const live = new Set();
  const killAll = () => { for (const child of live) { try { child.kill('SIGKILL'); } catch { /* gone */ } } };
  process.on('exit', killAll);
  try {
    for (const bench of benches) {
      signal?.throwIfAborted();
      const entry = { name: bench.name, title: bench.title, sql: bench.sql, note: bench.note ? bench.note(context) : undefined, order: [], results: [] };
      results.benches.push(entry);
      for (const driver of drivers) {
        signal?.throwIfAborted();
        const plan = planFor(bench, driver, context);
        const na = notApplicableReason(plan);
        const file = bench.replaySets?.[driver.name];
        if (na || !file) {
          entry.results.push({ driver: driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: na ?? 'no replay set' });
        } else if (file.failed) {
          entry.results.push({ driver: driver.name, protocol: plan.protocol, ok: false, status: 'failed', error: file.failed });
        } else {
          try {
            entry.results.push(await countRow({ bench, driver, context, file, target, live, signal, smoke }));
          } catch (err) {
            if (signal?.aborted) throw signal.reason;
            entry.results.push({ driver: driver.name, protocol: plan.protocol, ok: false, status: 'failed', error: err.message });
          }
        }
      }
      progress?.benchDone?.(bench, entry.results);
    }
    results.complete = true;
  } finally {
    killAll();
    process.off('exit', killAll);
  }
  return results;
}
