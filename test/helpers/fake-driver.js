// Stands in for a run's driver processes, as hyperfine's --debug-mode stands in for the commands it
// times: each answers the loop's turns ('open', 'window', 'close') at once, with figures from
// a function the test passes, and logs every turn. So the measuring loop runs without a driver, a
// server or a clock, the same every time.
import { DriverProcessError } from '../../lib/measuring/processes/driver-handle.js';
import { windowFigure } from '../../lib/measuring/figures/window-fields.js';

// A replayed row's window, fixed in operations (an open with warmupOps replies with one).
export const FIXED_WINDOW = { ops: 20, leadOps: 2, opsPerCheck: 1, opsPerTiming: 1 };

/** The name a fake process goes by in the log: driver#copy. */
export const processName = (driver, copy) => `${driver.name}#${copy}`;

/**
 * @param {object} [p]
 * @param {(w: { process: string, driver: string, copy: number, n: number, index: number, args: object }) => object} [p.figures]
 *   a window's figures (any of the window figure's fields; opsPerSec 1000 unless given), from the
 *   process, its `n`th window (from 1), the run's `index`th (from 1) and the loop's arguments
 * @param {(turn: { process: string, cmd: string, n: number, args: object }) => Error|null} [p.fault]
 *   an error the process answers this turn with instead (`n`: its turns of this kind, from 1)
 * @param {(process: string, args: object) => object} [p.opened] fields added to an open's reply (e.g. { unsupported })
 * @param {boolean} [p.aside] whether two processes may warm up at once, one on the harness's CPU
 * @returns {{ processes: object, log: object[], inFlight: { most: number }, handles: Map<string, object> }}
 *   `processes` for measureLoop and measureRun (one-bench.js for a bench alone); `log`, every turn in the order the
 *   loop took them: { process, driver, copy, cmd, args, aside }
 */
export function fakeDriverProcesses({ figures = () => ({}), fault = () => null, opened = () => ({}), aside = false } = {}) {
  const log = [];
  const inFlight = { now: 0, most: 0 };
  const handles = new Map();
  let windows = 0;

  const start = (driver, copy) => {
    const name = processName(driver, copy);
    const turns = { open: 0, window: 0, close: 0 };
    const handle = {
      name,
      pid: null,
      alive: true,
      closed: false,
      ended: false,
      windowsRun: 0,
      async turn(cmd, args, _timeoutMs, options = {}) {
        if (!handle.alive) throw new DriverProcessError(`${name} has ended`);
        log.push({ process: name, driver: driver.name, copy, cmd, args, aside: Boolean(options.aside) });
        turns[cmd] = (turns[cmd] ?? 0) + 1;
        if (cmd === 'window') {
          handle.windowsRun++;
          windows++;
        }
        const index = windows;
        // One turn of the event loop in flight, so that turns the loop takes together overlap.
        inFlight.now++;
        inFlight.most = Math.max(inFlight.most, inFlight.now);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight.now--;
        const error = fault({ process: name, cmd, n: turns[cmd], args });
        if (error) throw error;
        if (cmd === 'open') {
          return { protocol: 'text', fixed: args.warmupOps ? FIXED_WINDOW : undefined, warmupSeconds: 0.01, warmupOps: args.warmupOps, compileWaitSeconds: 0, ...opened(name, args) };
        }
        if (cmd === 'window') return windowReply({ process: name, driver: driver.name, copy, n: turns.window, index, args }, figures);
        if (cmd === 'close') {
          handle.closed = true;
          return { operations: 100 * turns.window, latency: null, rssMB: 50 };
        }
        throw new Error(`${name}: no such turn ${cmd}`);
      },
      kill() {
        handle.alive = false;
      },
      async end() {
        handle.ended = true;
        handle.alive = false;
      },
    };
    return handle;
  };

  const processes = {
    async get(driver, copy = 0) {
      const name = processName(driver, copy);
      if (!handles.get(name)?.alive) handles.set(name, start(driver, copy));
      return handles.get(name);
    },
    canWarmAside: () => aside,
    pids: () => [],
    async endAll() {
      await Promise.all([...handles.values()].map((h) => h.end()));
    },
  };
  return { processes, log, inFlight, handles };
}

/** A window's reply as a driver process gives it: the window figure, from `figures` and the arguments. */
function windowReply(w, figures) {
  const { args } = w;
  const f = { opsPerSec: 1000, compileWaitMs: 0, ...figures(w) };
  const ops = args.fixed?.ops ?? Math.max(1, Math.round(f.opsPerSec * args.windowS));
  const rate = args.rate ? { scheduled: ops, started: ops, completed: ops, skipped: 0, late: 0, behind: 0, measureSeconds: args.windowS, p50Us: 100, p99Us: 200 } : undefined;
  return windowFigure({
    samples: 1, ops, opsRun: ops + (args.fixed?.leadOps ?? 0), seconds: ops / f.opsPerSec, cpuUs: ops * 100, gcMs: 0, reruns: null, workload: undefined, rate, ...f,
  });
}

/** The rounds as the log shows them: per window turn of the rounds (after `skip` sizing windows), the driver. */
export const windowDrivers = (log, skip = 0) => log.filter((t) => t.cmd === 'window').slice(skip).map((t) => t.driver);
