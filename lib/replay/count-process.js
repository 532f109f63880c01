// One count process (count-entry.cjs, in its sandbox, under the counter's Valgrind tool or natively):
// started, its instrumentation switched by vgdb around each bench's windows as the worker asks ("on k",
// "off k" on stdout, a byte on stdin back), and each bench's window dumps read, and kept as a profile.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killOnExit } from '../common/children.js';
import { sum } from '../common/stats.js';
import { whenAborted } from '../common/timers.js';
import { fixedLayoutLauncher } from '../measuring/processes/same-program.js';
import { COUNT_NODE_FLAGS, commandPath, makeSandbox } from './count-sandbox.js';
import { keepPerfMap, keepProfile } from './profiles.js';

const DEFAULT_TIMEOUT_S = 600;

/** The last line Valgrind or the process wrote on stderr, without Valgrind's "==pid==" prefix. */
const lastLine = (stderr) => stderr.split('\n').map((l) => l.replace(/^==\d+==\s?/, '').trim()).filter(Boolean).slice(-1)[0] ?? '';

// Valgrind and vgdb name their FIFOs after these variables: vgdb must see the counted process's fixed
// environment's, or it looks for files that are not there.
const FIFO_NAMING = ['LOGNAME', 'USER', 'HOST', 'HOSTNAME'];

export function vgdbEnv(callerEnv, processEnv) {
  const env = { ...callerEnv };
  for (const name of FIFO_NAMING) {
    if (processEnv[name] === undefined) delete env[name];
    else env[name] = processEnv[name];
  }
  return env;
}

/** Pure: a line of a count process's stdout as a message: { switch, index, prime } or { report } or null. */
export function countMessage(line) {
  const m = /^(prime)?(on|off) (\d+)$/.exec(line);
  if (m) return { switch: m[2], index: Number(m[3]), prime: Boolean(m[1]) };
  if (line.startsWith('{')) {
    try {
      const report = JSON.parse(line);
      if (report && typeof report.ok === 'boolean') return { report };
    } catch { /* a driver's own output */ }
  }
  return null;
}

const dumpsIn = (dir) => fs.readdirSync(dir).map((f) => /^cg\.out\.(\d+)$/.exec(f)?.[1]).filter(Boolean).map(Number).sort((a, b) => a - b);

/** The last `counted` dumps after number `after` read as windows (and kept at `dest`), every one removed. */
function readWindowDumps(dir, after, { counter, counted, dest }) {
  const files = dumpsIn(dir).filter((n) => n > after).map((n) => path.join(dir, `cg.out.${n}`));
  try {
    if (files.length < counted + 1) throw new Error(`callgrind dumped ${files.length} times in the windows, not ${counted + 1} or more: the count's marker was not reached`);
    const mine = files.slice(-counted);
    const read = mine.map((f) => counter.readWindow(fs.readFileSync(f, 'utf8')));
    if (dest) keepProfile({ files: mine, dest });
    return read;
  } catch (err) {
    return { error: err.message };
  } finally {
    for (const f of files) fs.rmSync(f, { force: true });
  }
}

/** vgdb switching the counted process's instrumentation on or off: resolves to null, or why it could not. */
function switchInstrumentation({ prefix, pid, env }, what) {
  return new Promise((done) => {
    const v = spawn('vgdb', [prefix, `--pid=${pid}`, 'instrumentation', what], { stdio: 'ignore', env: vgdbEnv(process.env, env) });
    v.on('error', (err) => done(`cannot run vgdb (Valgrind's, to switch instrumentation ${what}): ${err.message}`));
    v.on('close', (code) => done(code !== 0 ? `vgdb could not switch instrumentation ${what} (exit ${code})` : null));
  });
}

function startCountProcess({ counter, sandbox, dir, profileFlags }) {
  const native = !counter.tool;
  const fixed = counter.fixedLayout ? fixedLayoutLauncher() : null;
  // vgdb finds the process through FIFOs named under one prefix, whatever TMPDIR each of them has.
  const prefix = `--vgdb-prefix=${path.join(dir, 'vgdb')}`;
  const nodeArgs = [...counter.v8Flags, ...COUNT_NODE_FLAGS, ...profileFlags, sandbox.entry, sandbox.job];
  const args = native ? nodeArgs : [...counter.toolArgs, ...counter.outputArgs(dir), prefix, process.execPath, ...nodeArgs];
  const command = native ? process.execPath : commandPath('valgrind');
  const env = { ...sandbox.env, GLIBC_TUNABLES: counter.mallocTunables };
  const child = spawn(fixed ? commandPath(fixed.command) : command, fixed ? [...fixed.args, command, ...args] : args, { cwd: sandbox.dir, stdio: ['pipe', 'pipe', 'pipe'], env });
  return { child, env, prefix };
}

function eachLine(stream, fn) {
  let pending = '';
  stream.on('data', (d) => {
    pending += d;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      fn(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
  });
}

const secondsSince = (from) => Math.round((Date.now() - from) / 100) / 10;

/** Instrumentation switched around a bench's windows; at "off" its dumps are read (and kept). */
async function switchAround(msg, { counter, dir, proc, state, stop, times, windowsOf, keepOf, counted, kept }) {
  const native = !counter.tool;
  if (msg.switch === 'on') times.set(msg.index, { warmup: secondsSince(state.since), on: Date.now() });
  const why = native ? null : await switchInstrumentation({ ...proc, pid: proc.child.pid }, msg.switch);
  if (why && (!state.closed || why.startsWith('cannot run vgdb'))) stop(why);
  if (msg.switch === 'on') {
    state.before = native ? 0 : dumpsIn(dir).at(-1) ?? 0;
    return;
  }
  if (!native) {
    const dest = keepOf(msg.index);
    const read = readWindowDumps(dir, state.before, { counter, counted, dest });
    windowsOf.set(msg.index, read);
    if (dest && !read.error) kept.dests.push(dest);
  }
  const t = times.get(msg.index);
  if (t) times.set(msg.index, { warmup: t.warmup, windows: secondsSince(t.on) });
}

function benchOutcome(report, read, times) {
  if (!report.ok) return { error: report.error || 'the count failed and gave no reason' };
  if (!read || read.error) return { error: read?.error ?? 'the bench ended without counted windows' };
  const events = read.every((w) => w.events) ? sumEvents(read.map((w) => w.events)) : null;
  return {
    windows: read.map((w) => w.figure), jit: read.map((w) => w.jit), gc: read.every((w) => w.gc !== undefined) ? read.map((w) => w.gc) : null,
    fullCollections: sum(read.map((w) => w.fullCollections ?? 0)), events, protocol: report.protocol,
    seconds: times?.windows !== undefined ? { warmup: times.warmup, windows: times.windows } : null,
  };
}

/** Counts a row's items in one process after a primer; onItem(i, outcome | { error }) once per item. */
export async function countItems({ counter, spec, identity, items, primer = items, chunks, counted, live = new Set(), signal, keepOf = () => null, profileFlags = [], onItem }) {
  const sandbox = makeSandbox({ spec, items, chunks, primer, identity, meter: !counter.tool });
  // Valgrind's own files (the dumps, vgdb's FIFOs): this process's, apart from the sandbox a twin may share.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mdb-count-'));
  const reported = new Set();
  const report = (i, outcome) => {
    if (reported.has(i)) return;
    reported.add(i);
    onItem(i, outcome);
  };
  const kept = { perfMap: null, dests: [] }; // V8 writes the perf map to /tmp/perf-<pid>.map, whatever TMPDIR says
  try {
    await talkToCountProcess({ counter, sandbox, dir, items, counted, live, signal, keepOf, profileFlags, report, kept });
  } finally {
    sandbox.remove();
    fs.rmSync(dir, { recursive: true, force: true });
    if (kept.perfMap) {
      keepPerfMap(kept.perfMap, kept.dests);
      fs.rmSync(kept.perfMap, { force: true });
    }
  }
}

function talkToCountProcess({ counter, sandbox, dir, items, counted, live, signal, keepOf, profileFlags, report, kept }) {
  const native = !counter.tool;
  const underTool = native ? '' : 'under valgrind ';
  return new Promise((resolve) => {
    const proc = startCountProcess({ counter, sandbox, dir, profileFlags });
    const { child } = proc;
    live.add(child);
    if (profileFlags.length) kept.perfMap = `/tmp/perf-${child.pid}.map`;
    const forget = killOnExit(child);
    const state = { closed: false, failure: null, before: 0, since: Date.now(), stderr: '', queue: Promise.resolve() };
    const windowsOf = new Map();
    const times = new Map(); // per bench: its warm-up (worker start included) and its windows, in seconds
    const stop = (why) => { state.failure ??= why; child.kill('SIGKILL'); };
    const onSwitch = async (msg) => {
      if (!msg.prime) await switchAround(msg, { counter, dir, proc, state, stop, times, windowsOf, keepOf, counted, kept });
      if (!state.closed) child.stdin.write('x');
    };
    const onReport = (msg) => {
      const i = msg.report.index;
      if (native && msg.report.windows) windowsOf.set(i, msg.report.windows.slice(-counted).map((w) => counter.readWindow(w)));
      report(i, benchOutcome(msg.report, windowsOf.get(i), times.get(i)));
    };
    eachLine(child.stdout, (line) => {
      const msg = countMessage(line);
      if (msg?.switch) state.queue = state.queue.then(() => onSwitch(msg));
      else if (msg?.report) {
        state.since = Date.now();
        if (msg.report.index !== undefined) state.queue = state.queue.then(() => onReport(msg));
      }
    });
    child.stderr.on('data', (d) => { state.stderr = (state.stderr + d).slice(-20000); });
    child.stdin.on('error', () => {}); // the process ended while an answer was on its way
    const timeoutS = (counter.timeoutS ?? DEFAULT_TIMEOUT_S) * (items.length + 1);
    const timer = setTimeout(() => stop(`the count process ${underTool}took over ${timeoutS} s and was stopped: the machine is too busy, or the row too long to count here`), timeoutS * 1000);
    const stopListening = whenAborted(signal, () => child.kill('SIGKILL'));
    child.on('error', (err) => { state.failure ??= `cannot run ${native ? 'node' : 'valgrind'}: ${err.message}`; });
    child.on('close', (code, sig) => {
      state.closed = true;
      clearTimeout(timer);
      stopListening();
      live.delete(child);
      forget();
      state.queue.then(() => {
        const last = lastLine(state.stderr);
        const why = state.failure ?? `the count process ${underTool}${sig ? `was killed (${sig})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`;
        items.forEach((_, i) => report(i, { error: why }));
        resolve();
      });
    });
  });
}

export function sumEvents(list) {
  const sums = {};
  for (const events of list) for (const [k, v] of Object.entries(events)) sums[k] = (sums[k] ?? 0) + v;
  return sums;
}
