// --replay --count <counter> (counters/: instructions, cycles): each row's client cost counted by Valgrind
// instead of timed. Per bench and driver one process (count-process.js, count-entry.cjs) replays the row's set with
// V8's determinism flags under the counter's tool (callgrind): instrumentation off for start-up and
// warm-up (Valgrind's uninstrumented speed, about 8 × faster), then on for three windows of N
// operations, each delimited by a dump of the tool's counters. The figure per operation is the windows' total over their operations;
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
import { fixedLayoutLauncher, fixedMallocTunables } from '../measuring/processes/same-program.js';
import { COUNT_THREAD_POOL } from './valgrind.js';
import { notApplicableReason, planFor } from '../measuring/bench/plan.js';
import { failedRow, naRow } from '../measuring/planning/rows.js';
import { killOnExit } from '../common/children.js';
import { whenAborted } from '../common/timers.js';
import { median, sum } from '../common/stats.js';
import { decodeConversation, readSet } from '../conversations/sets.js';
import { programSpec } from '../drivers/spec.js';
import { addedBenchSources } from '../../benchs/index.js';
import { PROFILES_DIR, keepProfile, profilePath, pruneProfiles } from './profiles.js';
import { confirmSteps } from './confirm-steps.js';

const CHILD = fileURLToPath(new URL('./count-entry.cjs', import.meta.url));

// The most a count process may take; a cycles count under load took over 600 s for one row of a
// --smoke select_100_cols (nine Valgrind processes on two cores), so each counter's own limit.
const DEFAULT_TIMEOUT_S = 600;

/** Pure: a count process's last stdout line as its report ({ ok, … }), or null (a killed process's last line may be a number). */
export function reportOf(stdout) {
  try {
    const report = JSON.parse(stdout.trim().split('\n').pop());
    return report !== null && typeof report === 'object' && typeof report.ok === 'boolean' ? report : null;
  } catch {
    return null;
  }
}

// Windows per row: their spread shows whether the row was steady.
const CHUNKS = 3;

// A window that counts this many times the row's median window holds a one-off event, not the
// row's steady cost: mysql2's `execute` had windows of 16.9 billion instructions against 2.4 billion,
// 70 % of it in TurboFan recompiling the generated row parser, in 2 to 3 processes of 6. Such a row is
// counted again in a new process, and marked unsteady (not judged) when that one has one too.
export const UNSTEADY_WINDOW_RATIO = 1.5;

/** Pure: does a row's windows' largest exceed UNSTEADY_WINDOW_RATIO × their median? */
export function unsteadyWindows(windows) {
  return Math.max(...windows) > UNSTEADY_WINDOW_RATIO * median(windows);
}

/** The last line Valgrind or the process wrote on stderr, without Valgrind's "==pid==" prefix. */
const lastLine = (stderr) => stderr.split('\n').map((l) => l.replace(/^==\d+==\s?/, '').trim()).filter(Boolean).slice(-1)[0] ?? '';

/**
 * One count process under the counter's Valgrind tool; resolves to { windows: [the counter's figure
 * of each window], events (the counter's breakdown over them, or null), result } or rejects with the
 * reason. Instrumentation is switched on through vgdb when the process passes its warm-up. `keep`: a
 * directory where the row's profile is kept (profiles.js), the process then run with the counter's
 * profileFlags for the run's `recorded` settings.count (with --jit-names: V8's perf map, for names).
 */
export async function countOnce(job, { counter, live = new Set(), signal, keep = null, recorded = null } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mdb-count-'));
  const go = path.join(dir, 'go');
  let perfMap = null; // V8 writes it to /tmp/perf-<pid>.map, whatever TMPDIR says
  try {
    return await new Promise((resolve, reject) => {
      const profileFlags = keep ? counter.profileFlags?.(dir, recorded) ?? [] : [];
      // A counter whose figure depends on where pages lie runs with one address layout (setarch -R execs
      // valgrind: the same pid, for vgdb).
      const fixed = counter.fixedLayout ? fixedLayoutLauncher() : null;
      const child = spawn(fixed ? fixed.command : 'valgrind', [...(fixed ? [...fixed.args, 'valgrind'] : []), ...counter.toolArgs, ...counter.outputArgs(dir),
        process.execPath, ...counter.v8Flags, ...profileFlags, CHILD, JSON.stringify({ ...job, go })], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TZ: DRIVER_PROCESS_TZ, GLIBC_TUNABLES: fixedMallocTunables(process.env.GLIBC_TUNABLES, counter.mallocTunables), UV_THREADPOOL_SIZE: String(COUNT_THREAD_POOL) },
      });
      live.add(child);
      if (profileFlags.length) perfMap = `/tmp/perf-${child.pid}.map`;
      const forget = killOnExit(child);
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
      const timeoutS = counter.timeoutS ?? DEFAULT_TIMEOUT_S;
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutS * 1000);
      const stopListening = whenAborted(signal, () => child.kill('SIGKILL'));
      child.on('error', (err) => reject(new Error(`cannot run valgrind: ${err.message}`)));
      child.on('close', (code, sig) => {
        closed = true;
        clearTimeout(timer);
        stopListening();
        live.delete(child);
        forget();
        const result = reportOf(stdout);
        if (result && !result.ok) return reject(new Error(result.error || 'the count process failed and gave no reason'));
        if (timedOut) return reject(new Error(`the count process under valgrind took over ${timeoutS} s and was stopped: the machine is too busy, or the row too long to count here`));
        if (code !== 0 || !result) {
          const last = lastLine(stderr);
          return reject(new Error(`the count process under valgrind ${sig ? `was killed (${sig})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`));
        }
        try {
          const counted = job.chunks - (counter.warmWindows ?? 0); // the last ones: warm windows come first
          const windows = counter.readWindows(dir, counted);
          const events = counter.breakdown?.(dir, counted) ?? null;
          if (keep) keepProfile({ dir, chunks: counted, dest: keep, perfMap });
          resolve({ windows, events, result });
        } catch (err) { reject(err); }
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (perfMap) fs.rmSync(perfMap, { force: true });
  }
}

/**
 * Count one bench on one driver. Returns a row: { count: { what, perOp, ops, warmup, windows,
 * spreadPct, events?, recountedFrom?, unsteady?, profile? } } or a failed one. `profiles`: { out, startedAt },
 * where the row's profile is kept (profiles.js), and count.profile says where, relative to `out`.
 */
async function countRow({ counter, bench, driver, context, file, target, live, signal, smoke, profiles }) {
  const sized = counter.size(decodeConversation(readSet(file)));
  // --smoke: an eighth of the operations: that the count runs, not a figure to keep.
  const { warmup, ops } = smoke ? { warmup: Math.max(64, sized.warmup / 8), ops: Math.max(16, sized.ops / 8) } : sized;
  // A counter's warm windows (cycles: one, to fill its simulated caches) run instrumented before the
  // counted ones and are not read.
  // A repeat's process loads its driver without the #tag: an A/A row runs the same program, the tag
  // (a string in the process) moved where things lie, and so its simulated caches' figure.
  const job = { spec: programSpec(driver), bench: bench.name, benches: addedBenchSources(), set: file, context, target, warmup, ops, chunks: CHUNKS + (counter.warmWindows ?? 0) };
  // A window that held a one-off event (UNSTEADY_WINDOW_RATIO): counted again, in a new process.
  const kept = profiles ? profilePath(profiles.startedAt, bench.name, driver.name) : null;
  const keep = kept ? path.join(profiles.out, kept) : null;
  const recorded = profiles?.recorded ?? null;
  const first = await countOnce(job, { counter, live, signal, keep, recorded });
  const again = unsteadyWindows(first.windows) ? await countOnce(job, { counter, live, signal, keep, recorded }) : null;
  if (keep) pruneProfiles(path.join(profiles.out, PROFILES_DIR));
  const { windows, events, result } = again ?? first;
  const total = sum(windows);
  // The counter's breakdown (cycles: instructions, L1 and LL misses, branch mispredictions), per operation.
  const perOp = (n) => Math.round((n / (CHUNKS * ops)) * 100) / 100;
  return {
    driver: driver.name,
    protocol: result.protocol,
    ok: true,
    status: 'ok',
    error: null,
    count: {
      what: counter.name,
      perOp: Math.round(total / (CHUNKS * ops)),
      ops: CHUNKS * ops,
      warmup,
      windows,
      spreadPct: Math.round(((Math.max(...windows) - Math.min(...windows)) / (total / CHUNKS)) * 1e5) / 1e3,
      ...(events ? { events: Object.fromEntries(Object.entries(events).map(([k, n]) => [k, perOp(n)])) } : {}),
      ...(again ? { recountedFrom: first.windows } : {}),
      ...(unsteadyWindows(windows) ? { unsteady: true } : {}),
      ...(kept ? { profile: kept } : {}),
    },
  };
}

/** One cell of a count run: the row it fills (n/a, failed, or counted). */
async function countCell({ counter, bench, driver, context, target, live, signal, smoke, profiles }) {
  const plan = planFor(bench, driver, context);
  const na = notApplicableReason(plan);
  const file = bench.replaySets?.[driver.name];
  if (na || !file) return naRow(driver, na ?? 'no replay set');
  if (file.failed) return failedRow(driver, file.failed, plan.protocol);
  try {
    return await countRow({ counter, bench, driver, context, file, target, live, signal, smoke, profiles });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    return failedRow(driver, err.message, plan.protocol);
  }
}

/**
 * Count every bench × driver of a replay run into results.benches (the benches as the replay stage
 * made them: each with its rows' sets), one process per CPU at a time; a bench's entry is reported
 * when its rows are done. Rows fail alone; nothing is left running, also on abort. `out`: the results'
 * directory, where each row's profile is kept (under profiles/), or null to keep none.
 */
export async function countRun({ counter, benches, drivers, results, context, target, signal, progress, smoke = false, out = null }) {
  const profiles = out ? { out, startedAt: results.startedAt, recorded: results.settings.count } : null;
  const live = new Set(); // killed when the run ends early (an error); each is also killed if this process exits
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
        e.entry.results[i] = await countCell({ counter, bench: e.bench, driver, context, target, live, signal, smoke, profiles });
        e.left--;
        report();
      }
    };
    const parallel = Math.max(1, Math.min(8, os.availableParallelism(), cells.length));
    await Promise.all(Array.from({ length: parallel }, worker));
    // A release history's steps, each side counted again (confirm-steps.js); not at --smoke size.
    if (results.settings.releaseRanges?.length && !smoke) {
      await confirmSteps(entries, {
        floorOf: (bench) => counter.benchFloorsPct?.[bench.name] ?? counter.noiseFloorPct,
        recount: (bench, i) => countCell({ counter, bench, driver: drivers[i], context, target, live, signal, smoke, profiles: null }),
        parallel, signal, log: (line) => progress?.log?.(line),
      });
    }
    results.complete = true;
  } finally {
    for (const child of live) child.kill('SIGKILL');
  }
  return results;
}
