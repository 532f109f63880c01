// --replay --count instructions: each row's client cost counted by Valgrind instead of timed. Per
// bench and driver one process (count-process.js) replays the row's set with V8's determinism flags
// under callgrind: instrumentation off for start-up and warm-up (Valgrind's uninstrumented speed,
// about 8 × faster), then on for three windows of N operations, each delimited by a dump of
// callgrind's counters. Instructions per operation are the windows' total over their operations;
// start-up and warm-up never enter, and the windows' spread says whether the row was steady.
// Why windows in one process, not the difference of two processes' totals (the first design): two
// processes' start-ups differed by up to 250,000 instructions between runs, 0.1 % of a cheap row's
// count. Counts do not depend on the host's load, so rows are counted side by side, one per CPU.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DRIVER_PROCESS_TZ } from '../measuring/processes/launch.js';
import { notApplicableReason, planFor } from '../measuring/bench/plan.js';
import { COUNT_MALLOC_TUNABLES, COUNT_V8_FLAGS, MARKER, VALGRIND_ARGS, unsteadyWindows } from '../measuring/valgrind.js';
import { decodeConversation, readSet } from '../conversations/sets.js';

const CHILD = fileURLToPath(new URL('./count-process.js', import.meta.url));

const VALGRIND_TIMEOUT_MS = 600000;

/**
 * How many operations each window runs (N) and the warm-up before them (W), from what a replayed
 * operation moves (from the set): its commands, the bytes the driver sends and those it receives
 * (about 30,000, 30 and 100 instructions each, fitted to the seven design benches' counts) estimate
 * its instructions, and N holds about 600 million; W is 8N, at least 2,048 operations (uninstrumented,
 * so cheap). The same W and N on every run of a set: a count depends on where its windows lie (sized
 * from a timing, W and N flipped between runs and counts moved by up to 15 %).
 */
export function sizeCount(recording) {
  const loop = recording.steps.slice(recording.cycleFrom);
  const ops = Math.max(1, recording.cycleOps ?? recording.ops - 1);
  const per = (bytes) => loop.reduce((n, s) => n + bytes(s), 0) / ops;
  const estimate = 30000 * (loop.length / ops) + 30 * per((s) => s.sent ?? 0) + 100 * per((s) => s.reply.length);
  const n = Math.max(64, Math.min(16384, 2 ** Math.round(Math.log2(600e6 / estimate))));
  return { warmup: Math.max(2048, 8 * n), ops: n };
}

/** The instructions a callgrind dump holds (its "summary:" line), or null. */
export function parseDumpTotal(text) {
  const m = /^summary:\s*(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

/** The instruction totals of the last `chunks` dumps of a finished count process in `dir`: its windows. */
function readWindows(dir, chunks) {
  const dumps = fs.readdirSync(dir).map((f) => /^cg\.out\.(\d+)$/.exec(f)?.[1]).filter(Boolean).map(Number).sort((a, b) => a - b);
  if (dumps.length < chunks + 1) throw new Error(`callgrind dumped ${dumps.length} times, not ${chunks + 1} or more: the count's marker (${MARKER}) was not reached`);
  return dumps.slice(-chunks).map((k) => {
    const total = parseDumpTotal(fs.readFileSync(path.join(dir, `cg.out.${k}`), 'utf8'));
    if (total === null) throw new Error('a callgrind dump had no summary line');
    return total;
  });
}

/** The last line Valgrind or the process wrote on stderr, without Valgrind's "==pid==" prefix. */
const lastLine = (stderr) => stderr.split('\n').map((l) => l.replace(/^==\d+==\s?/, '').trim()).filter(Boolean).slice(-1)[0] ?? '';

/**
 * One count process under callgrind; resolves to { windows: [instructions of each window], result }
 * or rejects with the reason. Instrumentation is switched on through vgdb when the process passes
 * its warm-up.
 */
export async function countOnce(job, { live = new Set(), signal } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mdb-count-'));
  const go = path.join(dir, 'go');
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn('valgrind', [...VALGRIND_ARGS, `--callgrind-out-file=${path.join(dir, 'cg.out')}`,
        process.execPath, ...COUNT_V8_FLAGS, CHILD, JSON.stringify({ ...job, go })], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TZ: DRIVER_PROCESS_TZ, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ? `${process.env.GLIBC_TUNABLES}:${COUNT_MALLOC_TUNABLES}` : COUNT_MALLOC_TUNABLES },
      });
      live.add(child);
      let stdout = '';
      let stderr = '';
      let switching = null;
      let closed = false; // the count process has ended (its temp dir goes with it)
      const fail = (message) => { child.kill('SIGKILL'); reject(new Error(message)); };
      child.stdout.on('data', (d) => {
        stdout += d;
        if (switching || !stdout.includes(`\n${job.warmup}\n`)) return;
        switching = new Promise((done) => {
          const vgdb = spawn('vgdb', [`--pid=${child.pid}`, 'instrumentation', 'on'], { stdio: 'ignore' });
          vgdb.on('error', (err) => fail(`cannot run vgdb (Valgrind's, to switch instrumentation on): ${err.message}`));
          vgdb.on('close', (code) => {
            // A count process killed meanwhile (Ctrl-C, SIGTERM, the timeout): nothing to switch on.
            if (closed) return done();
            if (code !== 0) return fail(`vgdb could not switch instrumentation on (exit ${code})`);
            fs.writeFileSync(go, '');
            done();
          });
        });
      });
      child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-20000); });
      const timer = setTimeout(() => child.kill('SIGKILL'), VALGRIND_TIMEOUT_MS);
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (err) => reject(new Error(`cannot run valgrind: ${err.message}`)));
      child.on('close', (code, sig) => {
        closed = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        live.delete(child);
        let result = null;
        try { result = JSON.parse(stdout.trim().split('\n').pop()); } catch { /* none */ }
        if (result && !result.ok) return reject(new Error(result.error));
        if (code !== 0 || !result) {
          const last = lastLine(stderr);
          return reject(new Error(`the count process under valgrind ${sig ? `was killed (${sig})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`));
        }
        try { resolve({ windows: readWindows(dir, job.chunks), result }); } catch (err) { reject(err); }
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Windows per row: their spread shows whether the row was steady.
const CHUNKS = 3;

/**
 * Count one bench on one driver. Returns a row: { instructionsPerOp, instructions: { ops, warmup,
 * windows, spreadPct } } or a failed one.
 */
async function countRow({ bench, driver, context, file, target, live, signal, smoke }) {
  const sized = sizeCount(decodeConversation(readSet(file)));
  // --smoke: an eighth of the operations: that the count runs, not a figure to keep.
  const { warmup, ops } = smoke ? { warmup: Math.max(64, sized.warmup / 8), ops: Math.max(16, sized.ops / 8) } : sized;
  const job = { spec: driver.loadSpec ?? driver.name, bench: bench.name, set: file, context, target, warmup, ops, chunks: CHUNKS };
  // A window that held a one-off event (valgrind.js UNSTEADY_WINDOW_RATIO): counted again, in a new process.
  const first = await countOnce(job, { live, signal });
  const again = unsteadyWindows(first.windows) ? await countOnce(job, { live, signal }) : null;
  const { windows, result } = again ?? first;
  const sum = windows.reduce((a, b) => a + b, 0);
  return {
    driver: driver.name,
    protocol: result.protocol,
    ok: true,
    status: 'ok',
    error: null,
    instructionsPerOp: Math.round(sum / (CHUNKS * ops)),
    instructions: {
      ops: CHUNKS * ops,
      warmup,
      windows,
      spreadPct: Math.round(((Math.max(...windows) - Math.min(...windows)) / (sum / CHUNKS)) * 1e5) / 1e3,
      ...(again ? { recountedFrom: first.windows } : {}),
      ...(unsteadyWindows(windows) ? { unsteady: true } : {}),
    },
  };
}

/** One cell of a count run: the row it fills (n/a, failed, or counted). */
async function countCell({ bench, driver, context, target, live, signal, smoke }) {
  const plan = planFor(bench, driver, context);
  const na = notApplicableReason(plan);
  const file = bench.replaySets?.[driver.name];
  if (na || !file) return { driver: driver.name, protocol: 'n/a', ok: false, status: 'n/a', error: na ?? 'no replay set' };
  if (file.failed) return { driver: driver.name, protocol: plan.protocol, ok: false, status: 'failed', error: file.failed };
  try {
    return await countRow({ bench, driver, context, file, target, live, signal, smoke });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    return { driver: driver.name, protocol: plan.protocol, ok: false, status: 'failed', error: err.message };
  }
}

/**
 * Count every bench × driver of a replay run into results.benches (the benches as the replay stage
 * made them: each with its rows' sets), one process per CPU at a time; a bench's entry is reported
 * when its rows are done. Rows fail alone; nothing is left running, also on abort.
 */
export async function countRun({ benches, drivers, results, context, target, signal, progress, smoke = false }) {
  const live = new Set();
  const killAll = () => { for (const child of live) { try { child.kill('SIGKILL'); } catch { /* gone */ } } };
  process.on('exit', killAll);
  try {
    const entries = benches.map((bench) => ({
      bench,
      entry: { name: bench.name, title: bench.title, sql: bench.sql, note: bench.note ? bench.note(context) : undefined, order: [], results: new Array(drivers.length) },
      left: drivers.length,
    }));
    const cells = entries.flatMap((e) => drivers.map((driver, i) => ({ e, driver, i })));
    let next = 0;
    let reported = 0;
    const report = () => {
      while (reported < entries.length && entries[reported].left === 0) {
        const { bench, entry } = entries[reported++];
        results.benches.push(entry);
        progress?.benchDone?.(bench, entry.results);
      }
    };
    const worker = async () => {
      while (next < cells.length) {
        signal?.throwIfAborted();
        const { e, driver, i } = cells[next++];
        e.entry.results[i] = await countCell({ bench: e.bench, driver, context, target, live, signal, smoke });
        e.left--;
        report();
      }
    };
    const parallel = Math.max(1, Math.min(8, os.availableParallelism(), cells.length));
    await Promise.all(Array.from({ length: parallel }, worker));
    results.complete = true;
  } finally {
    killAll();
    process.off('exit', killAll);
  }
  return results;
}
