// One row's count process under the counter's Valgrind tool (count-entry.cjs, in its sandbox): a
// primer, then the row's benches, each in a worker thread of its own. Instrumentation is off but for
// each bench's windows: the worker asks ("on k", "off k" on stdout) and waits for a byte on stdin
// while vgdb switches it. At "off k" the bench's window dumps are read (the counter's readWindow) and,
// when asked, kept as the row's profile (profiles.js). A native counter (no tool) runs the process
// without Valgrind, answers at once, and reads the windows the worker measured from its report.
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

// The most a count process may take per bench it counts, unless the counter says otherwise.
const DEFAULT_TIMEOUT_S = 600;

/** The last line Valgrind or the process wrote on stderr, without Valgrind's "==pid==" prefix. */
const lastLine = (stderr) => stderr.split('\n').map((l) => l.replace(/^==\d+==\s?/, '').trim()).filter(Boolean).slice(-1)[0] ?? '';

// Valgrind and vgdb name their FIFOs after the user and the host as the environment says them
// (LOGNAME or USER, HOST or HOSTNAME, else ???): vgdb must see what the counted process's fixed
// environment says, or it looks for files that are not there (a runner sets USER; this VM does not).
const FIFO_NAMING = ['LOGNAME', 'USER', 'HOST', 'HOSTNAME'];

/** Pure: vgdb's environment for a process started with `processEnv`: the caller's, with the FIFO-naming variables as the process has them. */
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

/** The callgrind dumps in `dir`, by number (cg.out.<n>), ascending. */
const dumpsIn = (dir) => fs.readdirSync(dir).map((f) => /^cg\.out\.(\d+)$/.exec(f)?.[1]).filter(Boolean).map(Number).sort((a, b) => a - b);

/**
 * Count `items` (each { bench, set, context, target, benches, warmup, ops }) of one row (`spec`, and
 * `identity`: what names its sandbox) in one process, after a primer over `primer` (the row's benches). `chunks` windows a bench, the last
 * `counted` of them read. `keepOf(i)`: where item i's profile goes, or null; `profileFlags`, V8 flags
 * then added. Calls onItem(i, { windows, jit, events, protocol, seconds } | { error }) as each bench ends, and
 * resolves when the process has ended (every item reported once).
 */
export async function countItems({ counter, spec, identity, items, primer = items, chunks, counted, live = new Set(), signal, keepOf = () => null, profileFlags = [], onItem }) {
  const native = !counter.tool;
  // What the messages say the process ran under.
  const runner = native ? 'node' : 'valgrind';
  const underTool = native ? '' : 'under valgrind ';
  const sandbox = makeSandbox({ spec, items, chunks, primer, identity, meter: native });
  // Valgrind's own files (the dumps, vgdb's FIFOs): this process's, apart from the sandbox a twin may share.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mdb-count-'));
  const reported = new Set();
  const windowsOf = new Map();
  const report = (i, outcome) => {
    if (reported.has(i)) return;
    reported.add(i);
    onItem(i, outcome);
  };
  let perfMap = null; // V8 writes it to /tmp/perf-<pid>.map, whatever TMPDIR says
  const keptDests = [];
  try {
    await new Promise((resolve) => {
      const fixed = counter.fixedLayout ? fixedLayoutLauncher() : null;
      // vgdb finds the process through FIFOs named under one prefix, whatever TMPDIR each of them has.
      const prefix = `--vgdb-prefix=${path.join(dir, 'vgdb')}`;
      const nodeArgs = [...counter.v8Flags, ...COUNT_NODE_FLAGS, ...profileFlags, sandbox.entry, sandbox.job];
      const args = native ? nodeArgs : [...counter.toolArgs, ...counter.outputArgs(dir), prefix, process.execPath, ...nodeArgs];
      const command = native ? process.execPath : commandPath('valgrind');
      const env = { ...sandbox.env, GLIBC_TUNABLES: counter.mallocTunables };
      const child = spawn(fixed ? commandPath(fixed.command) : command, fixed ? [...fixed.args, command, ...args] : args, { cwd: sandbox.dir, stdio: ['pipe', 'pipe', 'pipe'], env });
      live.add(child);
      if (profileFlags.length) perfMap = `/tmp/perf-${child.pid}.map`;
      const forget = killOnExit(child);
      let pending = '';
      let stderr = '';
      let closed = false;
      let failure = null; // why the process was stopped
      let before = 0; // the last dump before the current bench's windows
      const started = Date.now();
      let since = started; // when the current bench's worker began (the primer's end, or the last bench's)
      const times = new Map(); // per bench: its warm-up (worker start included) and its windows, in seconds
      const seconds = (from) => Math.round((Date.now() - from) / 100) / 10;
      let queue = Promise.resolve(); // switches, one at a time: the worker waits for each
      const answer = () => { if (!closed) child.stdin.write('x'); };
      const stop = (why) => { failure ??= why; child.kill('SIGKILL'); };
      const vgdb = (what) => new Promise((done) => {
        const v = spawn('vgdb', [prefix, `--pid=${child.pid}`, 'instrumentation', what], { stdio: 'ignore', env: vgdbEnv(process.env, env) });
        v.on('error', (err) => { stop(`cannot run vgdb (Valgrind's, to switch instrumentation ${what}): ${err.message}`); done(); });
        v.on('close', (code) => {
          if (code !== 0 && !closed) stop(`vgdb could not switch instrumentation ${what} (exit ${code})`);
          done();
        });
      });
      const windowsAt = (i) => {
        const files = dumpsIn(dir).filter((n) => n > before).map((n) => path.join(dir, `cg.out.${n}`));
        try {
          if (files.length < counted + 1) throw new Error(`callgrind dumped ${files.length} times in the windows, not ${counted + 1} or more: the count's marker was not reached`);
          const mine = files.slice(-counted);
          const read = mine.map((f) => counter.readWindow(fs.readFileSync(f, 'utf8')));
          windowsOf.set(i, read);
          const dest = keepOf(i);
          if (dest) {
            keepProfile({ files: mine, dest });
            keptDests.push(dest);
          }
        } catch (err) {
          windowsOf.set(i, { error: err.message });
        } finally {
          for (const f of files) fs.rmSync(f, { force: true });
        }
      };
      const onMessage = (msg) => {
        if (msg.switch) {
          queue = queue.then(async () => {
            if (!msg.prime) {
              if (msg.switch === 'on') times.set(msg.index, { warmup: seconds(since), on: Date.now() });
              if (!native) await vgdb(msg.switch);
              if (msg.switch === 'on') before = native ? 0 : dumpsIn(dir).at(-1) ?? 0;
              else {
                if (!native) windowsAt(msg.index);
                const t = times.get(msg.index);
                if (t) times.set(msg.index, { warmup: t.warmup, windows: seconds(t.on) });
              }
            }
            answer();
          });
        } else if (msg.report && msg.report.index === undefined) {
          since = Date.now();
        } else if (msg.report && msg.report.index !== undefined) {
          since = Date.now();
          queue = queue.then(() => {
            const i = msg.report.index;
            if (native && msg.report.windows) windowsOf.set(i, msg.report.windows.slice(-counted).map((w) => counter.readWindow(w)));
            const read = windowsOf.get(i);
            if (!msg.report.ok) return report(i, { error: msg.report.error || 'the count failed and gave no reason' });
            if (!read || read.error) return report(i, { error: read?.error ?? 'the bench ended without counted windows' });
            const events = read.every((w) => w.events) ? sumEvents(read.map((w) => w.events)) : null;
            const t = times.get(i);
            return report(i, { windows: read.map((w) => w.figure), jit: read.map((w) => w.jit), gc: read.every((w) => w.gc !== undefined) ? read.map((w) => w.gc) : null, fullCollections: sum(read.map((w) => w.fullCollections ?? 0)), events, protocol: msg.report.protocol, seconds: t?.windows !== undefined ? { warmup: t.warmup, windows: t.windows } : null });
          });
        }
      };
      child.stdout.on('data', (d) => {
        pending += d;
        for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
          const msg = countMessage(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          if (msg) onMessage(msg);
        }
      });
      child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-20000); });
      child.stdin.on('error', () => {}); // the process ended while an answer was on its way
      const timeoutS = (counter.timeoutS ?? DEFAULT_TIMEOUT_S) * (items.length + 1);
      const timer = setTimeout(() => stop(`the count process ${underTool}took over ${timeoutS} s and was stopped: the machine is too busy, or the row too long to count here`), timeoutS * 1000);
      const stopListening = whenAborted(signal, () => child.kill('SIGKILL'));
      child.on('error', (err) => { failure ??= `cannot run ${runner}: ${err.message}`; });
      child.on('close', (code, sig) => {
        closed = true;
        clearTimeout(timer);
        stopListening();
        live.delete(child);
        forget();
        queue.then(() => {
          const last = lastLine(stderr);
          const why = failure ?? `the count process ${underTool}${sig ? `was killed (${sig})` : `exited with code ${code}`}${last ? `: ${last}` : ''}`;
          items.forEach((_, i) => report(i, { error: why }));
          resolve();
        });
      });
    });
  } finally {
    sandbox.remove();
    fs.rmSync(dir, { recursive: true, force: true });
    if (perfMap) {
      keepPerfMap(perfMap, keptDests);
      fs.rmSync(perfMap, { force: true });
    }
  }
}

/** Pure: breakdowns ({ name: n }) added up. */
export function sumEvents(list) {
  const sums = {};
  for (const events of list) for (const [k, v] of Object.entries(events)) sums[k] = (sums[k] ?? 0) + v;
  return sums;
}
