// What a counted window allocated (young generation and large objects) and wrote, measured natively in
// the count worker (count-bench.js). Under replay the work repeats exactly, and so do these figures.
import v8 from 'node:v8';
import { replayTraffic } from '../conversations/transport.js';
import { COUNTED_SPACES, allocatedBetween, objectBytes } from '../measuring/figures/allocation.js';

// The count's process runs with allocation-site pretenuring off: the program allocates young or large.
const counted = COUNTED_SPACES.program;

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

// V8 gives the meter's functions their feedback only after some calls, an allocation the first empty
// windows hold: the last one counts.
const EMPTY_WINDOWS = 16;

/** A meter of consecutive windows, each given without the meter's own allocation (an empty window's). */
export function windowMeter() {
  let empty = 0;
  for (let i = 0; i < EMPTY_WINDOWS; i++) empty = startWindow().end().bytes;
  let current = null;
  const windows = [];
  return {
    empty,
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
