// What a counted window allocated and wrote, measured natively inside the count worker (count-bench.js):
// the bytes the program allocated on V8's heap (its young generation and large objects), and the
// replayed sockets' traffic. Under
// replay the driver's work repeats exactly, and so do these figures.
import v8 from 'node:v8';
import { replayTraffic } from '../conversations/transport.js';
import { COUNTED_SPACES, allocatedBetween, objectBytes } from '../measuring/figures/allocation.js';

// The count's process runs with allocation-site pretenuring off: the program allocates young or large.
const counted = COUNTED_SPACES.program;

/** Start measuring a window; end() returns { bytes, collections, writes, bytesSent, bytesReceived }. */
function startWindow() {
  const profiler = new v8.GCProfiler();
  const traffic = replayTraffic();
  profiler.start();
  const before = objectBytes(v8.getHeapSpaceStatistics(), counted);
  return {
    end() {
      const after = objectBytes(v8.getHeapSpaceStatistics(), counted);
      const now = replayTraffic();
      const { statistics } = profiler.stop();
      return {
        bytes: allocatedBetween(before, after, statistics, counted),
        collections: statistics.length,
        writes: now.writes - traffic.writes,
        bytesSent: now.bytesSent - traffic.bytesSent,
        bytesReceived: now.bytesReceived - traffic.bytesReceived,
      };
    },
  };
}

// Empty windows measured before the meter's: V8 gives the meter's own functions their feedback only
// after some calls, an allocation the first empty windows hold and later ones do not.
const EMPTY_WINDOWS = 16;

/**
 * A meter of consecutive windows. The meter's own readings allocate a fixed amount in each window;
 * an empty window, measured first, gives it, and every window's bytes are given without it.
 */
export function windowMeter() {
  let empty = 0;
  for (let i = 0; i < EMPTY_WINDOWS; i++) empty = startWindow().end().bytes;
  let current = null;
  const windows = [];
  return {
    empty,
    /** End the window in progress, if any, and start the next one unless `last`. */
    mark(last = false) {
      if (current) {
        const w = current.end();
        windows.push({ ...w, bytes: w.bytes - empty });
      }
      current = last ? null : startWindow();
    },
    windows: () => windows,
  };
}
