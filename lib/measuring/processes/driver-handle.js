// The parent's side of a driver process (driver-process.js): start it, send it requests, stop it
// (SIGSTOP) while other drivers are measured and continue it (SIGCONT) for its own turn, and end it.
// A process that crashes or stops answering fails the request with a clear reason; it never hangs
// or fails the run.
import { fork, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { redact } from '../../common/redact.js';
import { DETERMINISTIC_V8_FLAGS, fixedLayoutLauncher, fixedMallocTunables } from './same-program.js';

const CHILD = fileURLToPath(new URL('../driver/driver-process.js', import.meta.url));
const WATCHDOG = fileURLToPath(new URL('./orphan-watchdog.js', import.meta.url));
const START_TIMEOUT_MS = 30000;

// Lets a driver process wait for V8's background compiles (driver/jit.js, --jit wait).
export const JIT_HOOK_FLAG = '--allow-natives-syntax';

// The same V8 heap settings for every driver process. V8 sizes the young generation from what the
// process did before (it grows under allocation and shrinks when idle), so a driver's figure on a
// bench depended on the benches before it: on this VM the same driver's ratio moved by up to 17 %
// between identical runs. Fixed at its usual ceiling, as a long-running busy process has it, three
// runs of the design benches agreed within 6.4 % (docs/measuring.md, "How a bench is measured").
export const DRIVER_PROCESS_FLAGS = Object.freeze(['--min-semi-space-size=16', '--max-semi-space-size=16', JIT_HOOK_FLAG]);

// A --replay process runs V8 deterministically (same-program.js), so that a row's processes run the
// same program and differ by what the host does, not by when V8 decided something (docs/replay.md),
// and has gc(), for one full collection in its warm-up (warm-up.js).
export const REPLAY_PROCESS_FLAGS = Object.freeze([...DETERMINISTIC_V8_FLAGS, '--expose-gc']);

/** The V8 flags of a driver process whose connections go to `target`. */
export const driverProcessFlags = (target) => (target?.replay ? [...DRIVER_PROCESS_FLAGS, ...REPLAY_PROCESS_FLAGS] : [...DRIVER_PROCESS_FLAGS]);

// Every driver process runs in UTC, whatever the machine's zone: `mariadb` builds Date values in the
// process's local time zone, `mysql` and `mysql2` in their `timezone` option's, so only with both in
// UTC do the three return the same instant for the same DATETIME (the data-type bench checks it).
export const DRIVER_PROCESS_TZ = 'UTC';

/**
 * How a driver process is started on its row's runtime. On the harness's Node: its V8 flags, and
 * messages in V8's serialization. On another Node: the same flags, messages in JSON (V8's format
 * changes between majors). On Bun: no V8 flags (JavaScriptCore has none of them; the results say
 * what the row lacks), messages in JSON, which Bun's IPC with Node speaks. A replayed row's process
 * also gets `env`: glibc's malloc thresholds fixed (added to the harness's environment).
 */
export function processRuntime(runtime, target) {
  const how = startedHow(runtime, target);
  // A replayed row's processes also take their large buffers the same way (same-program.js).
  if (target?.replay) how.env = { GLIBC_TUNABLES: fixedMallocTunables(process.env.GLIBC_TUNABLES) };
  return how;
}

function startedHow(runtime, target) {
  if (!runtime || runtime.harness) {
    // A replayed row's processes also share one address layout (same-program.js), where setarch can.
    const fixed = target?.replay ? fixedLayoutLauncher() : null;
    if (fixed) return { serialization: 'advanced', execPath: fixed.command, execArgv: [...fixed.args, process.execPath, ...driverProcessFlags(target)] };
    return { serialization: 'advanced', execArgv: driverProcessFlags(target) };
  }
  if (runtime.kind === 'bun') return { serialization: 'json', execPath: runtime.exec, execArgv: [] };
  return { serialization: 'json', execPath: runtime.exec, execArgv: driverProcessFlags(target) };
}

export class DriverProcessError extends Error {
  constructor(message) {
    super(message);
    this.name = 'DriverProcessError';
  }
}

/** Every driver process this harness started and has not ended (ended on exit, whatever happens). */
const live = new Set();
process.on('exit', () => {
  for (const child of live) {
    try { child.kill('SIGKILL'); } catch { /* gone */ }
  }
});

// One watchdog per harness process, started with the first driver process (see orphan-watchdog.js).
let watchdog = null;
function watch(pid) {
  if (!watchdog) {
    watchdog = spawn(process.execPath, [WATCHDOG], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    watchdog.on('error', () => {});
    watchdog.stdin.on('error', () => {});
    watchdog.unref();
    watchdog.stdin.unref?.();
  }
  watchdog.stdin.write(`${pid}\n`);
}
// An ended process's pid may be reused: the watchdog forgets it.
const unwatch = (pid) => watchdog?.stdin.write(`-${pid}\n`);

export class DriverHandle {
  /**
   * @param {object} p
   * @param {object} p.driver the loaded adapter (its loadSpec and name say what the child loads)
   * @param {object} p.target where the driver connects
   * @param {object} p.context { schema, server, options } handed to the benches
   * @param {(pid: number) => void} [p.place] pins the process to its CPUs (placement)
   * @param {{ away(pid), back(pid) }} [p.aside] moves its main thread to the harness's CPU and back
   */
  static async start({ driver, target, context, place = () => {}, aside = null }) {
    const handle = new DriverHandle(driver);
    // The temp dir in the command line lets a test find a leftover process of its own run.
    const how = processRuntime(driver.runtime, target);
    const child = fork(CHILD, [`--tmpdir=${tmpdir()}`], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      ...how,
      env: { ...process.env, TZ: DRIVER_PROCESS_TZ, ...how.env },
    });
    handle.child = child;
    live.add(child);
    watch(child.pid);
    child.stderr.on('data', (d) => { handle.stderr = (handle.stderr + d).slice(-4000); });
    child.on('message', (m) => handle.onMessage(m));
    child.on('error', (err) => handle.onExit(`cannot run the driver process: ${err.message}`));
    child.on('exit', (code, signal) => handle.onExit(`the driver process exited (${signal ?? `code ${code}`})`));
    await handle.waitReady();
    // Placed once its driver is loaded: processes started together load in parallel, not all on
    // the drivers' CPU; nothing is measured before the placement.
    let loaded;
    try {
      loaded = await handle.request('init', { spec: driver.loadSpec ?? driver.name, target, context }, START_TIMEOUT_MS);
    } catch (err) {
      await handle.end(); // a driver that cannot load leaves no process behind until the run ends
      throw err;
    }
    handle.awaitsCompiles = Boolean(loaded?.awaitsCompiles);
    place(child.pid);
    handle.place = () => place(child.pid);
    handle.aside = aside && { away: () => aside.away(child.pid), back: () => aside.back(child.pid) };
    handle.pause();
    return handle;
  }

  constructor(driver) {
    this.driver = driver;
    this.child = null;
    this.stderr = '';
    this.pending = new Map();
    this.nextId = 1;
    this.exitReason = null;
    this.paused = false;
    this.readyWaiter = null;
    this.windowsRun = 0; // windows this process has run, every bench's
  }

  get pid() { return this.child?.pid; }

  get alive() { return this.exitReason === null; }

  waitReady() {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new DriverProcessError(`the driver process did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      this.readyWaiter = {
        resolve: () => { clearTimeout(timer); resolve(); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      };
    });
  }

  onMessage(m) {
    if (m?.ready) {
      this.readyWaiter?.resolve();
      return;
    }
    const p = this.pending.get(m?.id);
    if (!p) return;
    this.pending.delete(m.id);
    p.settle(m);
  }

  onExit(reason) {
    if (this.exitReason !== null) return;
    const last = this.stderr.trim().split('\n').filter(Boolean).at(-1);
    this.exitReason = redact(last ? `${reason}: ${last}` : reason);
    live.delete(this.child);
    unwatch(this.child.pid);
    const err = new DriverProcessError(this.exitReason);
    this.readyWaiter?.reject(err);
    for (const p of this.pending.values()) p.settle({ ok: false, error: this.exitReason, crashed: true });
    this.pending.clear();
  }

  /**
   * Send one request; resolves to its result. Rejects with the driver's error (a failed check, a
   * driver error), or a DriverProcessError when the process died or did not answer in `timeoutMs`
   * (it is then killed).
   */
  request(cmd, args, timeoutMs) {
    if (!this.alive) return Promise.reject(new DriverProcessError(this.exitReason));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.kill();
        reject(new DriverProcessError(`the driver process did not answer within ${Math.round(timeoutMs / 1000)} s (${cmd}): killed`));
      }, timeoutMs);
      this.pending.set(id, {
        settle: (m) => {
          clearTimeout(timer);
          if (m.ok) resolve(m.result);
          else reject(m.crashed ? new DriverProcessError(m.error) : new Error(m.error));
        },
      });
      this.child.send({ id, cmd, args });
    });
  }

  /** Stop the process (all its threads: its garbage collection too) until resume(). */
  pause() {
    if (!this.alive || this.paused) return;
    try { this.child.kill('SIGSTOP'); this.paused = true; } catch { /* gone */ }
  }

  resume() {
    if (!this.alive || !this.paused) return;
    try { this.child.kill('SIGCONT'); this.paused = false; } catch { /* gone */ }
  }

  /**
   * Continue the process for one request, and stop it again afterwards. `aside`: its main thread
   * runs the request on the harness's CPU, and is placed back on its own after it.
   */
  async turn(cmd, args, timeoutMs, { aside = false } = {}) {
    if (cmd === 'window') this.windowsRun++;
    const away = aside && this.aside;
    if (away) away.away();
    this.resume();
    try {
      return await this.request(cmd, args, timeoutMs);
    } finally {
      if (away && this.alive) away.back();
      // Threads the process started while setting up a bench take their CPUs too.
      if (cmd === 'open' && this.alive) this.place?.();
      this.pause();
    }
  }

  kill() {
    if (!this.child) return;
    try { this.child.kill('SIGKILL'); } catch { /* gone */ }
  }

  /** End the process: continue it (a stopped process cannot exit), disconnect, and kill it if it lingers. */
  async end() {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.resume();
    try { this.child.disconnect(); } catch { /* already */ }
    const timer = setTimeout(() => this.kill(), 2000);
    await gone;
    clearTimeout(timer);
  }
}

/** The run's driver processes: per driver, as many as its rows use, started on first use, started again after a crash. */
export class DriverProcesses {
  /**
   * @param {object} p
   * @param {object} p.target @param {object} p.context
   * @param {(pid: number) => void} [p.place]
   * @param {{ away(pid), back(pid) }} [p.aside] moves a process's main thread to the harness's CPU and back (canWarmAside)
   */
  constructor({ target, context, place, aside = null }) {
    this.options = { target, context, place, aside };
    this.handles = new Map();
    this.starting = new Set(); // starts in flight, which endAll() waits for
    this.ending = false;
  }

  /** The driver's process number `copy` (a row may be measured in several processes). */
  async get(driver, copy = 0) {
    const key = `${driver.name}\u0000${copy}`;
    const handle = this.handles.get(key);
    if (handle?.alive) return handle;
    if (this.ending) throw new Error('the run is ending: no driver process is started');
    const starting = this.#start(driver, key);
    this.starting.add(starting);
    try {
      return await starting;
    } finally {
      this.starting.delete(starting);
    }
  }

  // A start that ends after endAll() began (a run interrupted while its processes were starting)
  // ends its process at once: otherwise it would be left stopped, and keep the harness alive.
  async #start(driver, key) {
    const started = await DriverHandle.start({ driver, ...this.options });
    if (this.ending) {
      await started.end();
      throw new Error('the run is ending: no driver process is started');
    }
    this.handles.set(key, started);
    return started;
  }

  /** Can two processes warm up at once, one of them on the harness's CPU? */
  canWarmAside() {
    return Boolean(this.options.aside);
  }

  pids() {
    return [...this.handles.values()].filter((h) => h.alive).map((h) => h.pid);
  }

  async endAll() {
    this.ending = true;
    await Promise.allSettled([...this.starting]);
    const handles = [...this.handles.values()];
    this.handles.clear();
    await Promise.all(handles.map((h) => h.end()));
  }
}
