// The parent's side of a driver process (driver-process.js): stopped (SIGSTOP) while other drivers are
// measured, continued for its own turn. A crash or a silence fails the request, never the run.
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { redact } from '../../common/redact.js';
import { programSpec } from '../../drivers/spec.js';
import { addedBenchSources } from '../../../benchs/index.js';
import { DRIVER_PROCESS_TZ, processRuntime } from './launch.js';
import { reap } from './reaping.js';

const CHILD = fileURLToPath(new URL('../driver/driver-process.js', import.meta.url));
const START_TIMEOUT_MS = 30000;

export class DriverProcessError extends Error {
  constructor(message) {
    super(message);
    this.name = 'DriverProcessError';
  }
}

export class DriverHandle {
  // A repeat's `#tag` stays in the parent, so an A/A twin's process loads the same program.
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
    handle.forget = reap(child);
    child.stderr.on('data', (d) => { handle.stderr = (handle.stderr + d).slice(-4000); });
    child.on('message', (m) => handle.onMessage(m));
    child.on('error', (err) => handle.onExit(`cannot run the driver process: ${err.message}`));
    child.on('exit', (code, signal) => handle.onExit(`the driver process exited (${signal ?? `code ${code}`})`));
    await handle.waitReady();
    // Placed once loaded: processes started together load in parallel, not all on the drivers' CPU.
    let loaded;
    try {
      loaded = await handle.request('init', { spec: programSpec(driver), target, context, benches: addedBenchSources() }, START_TIMEOUT_MS);
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
    this.forget = null; // forgets it in the reaping (reaping.js) once it has ended
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
    this.forget?.();
    const err = new DriverProcessError(this.exitReason);
    this.readyWaiter?.reject(err);
    for (const p of this.pending.values()) p.settle({ ok: false, error: this.exitReason, crashed: true });
    this.pending.clear();
  }

  /** Rejects with the driver's error, or a DriverProcessError when the process died or timed out (then killed). */
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

  /** All its threads: its garbage collection too. */
  pause() {
    if (!this.alive || this.paused) return;
    try { this.child.kill('SIGSTOP'); this.paused = true; } catch { /* gone */ }
  }

  resume() {
    if (!this.alive || !this.paused) return;
    try { this.child.kill('SIGCONT'); this.paused = false; } catch { /* gone */ }
  }

  /** Continues the process for one request, then stops it; `aside`: run on the harness's CPU. */
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

  /** Continued first: a stopped process cannot exit. */
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
