// The run's driver processes: per driver, as many as its rows use, started on first use and again
// after a crash, and ended together.
import { DriverHandle } from './driver-handle.js';

export class DriverProcesses {
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

  // A start that ends after endAll() began ends its process at once, or it would be left stopped
  // and keep the harness alive.
  async #start(driver, key) {
    const started = await DriverHandle.start({ driver, ...this.options });
    if (this.ending) {
      await started.end();
      throw new Error('the run is ending: no driver process is started');
    }
    this.handles.set(key, started);
    return started;
  }

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
