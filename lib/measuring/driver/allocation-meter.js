// What a measured span allocated on V8's heap (heap in use plus what collections freed) and its read
// and write system calls (/proc/self/io, Linux). The process's calls are the driver's socket I/O:
// IPC with the parent happens only between windows.
import fs from 'node:fs';
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import { IO_FIELDS, allocatedBetween, collectionsWithin, ioCalls, objectBytes } from '../figures/allocation.js';
import { gcCountBetween } from './gc-pauses.js';

// One descriptor kept open, read by position: far cheaper than opening the file anew.
let ioFd;
const ioBuffer = Buffer.alloc(1024);
function openIo() {
  if (ioFd === undefined) {
    try { ioFd = fs.openSync('/proc/self/io', 'r'); } catch { ioFd = null; }
  }
  return ioFd;
}

export function readIo() {
  const fd = openIo();
  if (fd === null) return null;
  const n = fs.readSync(fd, ioBuffer, 0, ioBuffer.length, 0);
  return ioCalls(ioBuffer.latin1Slice(0, n));
}

const heapBytes = () => objectBytes(v8.getHeapSpaceStatistics());

// The meter's own cost, from empty spans, is subtracted from every span; the first few hold the
// allocation of V8's feedback for the meter's functions, so the last one counts.
const EMPTY_SPANS = 16;
const noCalls = (value) => Object.fromEntries(IO_FIELDS.map((f) => [f, value]));
/** The I/O between two readings, less the meter's own (`self`); `missing` for each when a reading is. */
const ioBetween = (io0, io1, self, missing = null) => (io0 && io1 ? Object.fromEntries(IO_FIELDS.map((f) => [f, io1[f] - io0[f] - self[f]])) : noCalls(missing));

let own = null;
function ownReadings() {
  if (own) return own;
  let empty = null;
  for (let i = 0; i < EMPTY_SPANS; i++) {
    const meter = spanMeter({ own: { bytes: 0, ...noCalls(0) } });
    meter.start();
    meter.end();
    meter.afterClock();
    meter.close();
    empty = meter.raw();
  }
  own = { bytes: empty.heap1 - empty.heap0, ...ioBetween(empty.io0, empty.io1, noCalls(0), 0) };
  return own;
}

/** Made before the window; start()/end() around the span, afterClock(), close() after the window, figures() a turn later. */
export function spanMeter({ own: given } = {}) {
  const self = given ?? ownReadings();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const r = { opened: performance.now(), closed: null, from: null, to: null, heap0: null, heap1: null, io0: null, io1: null, statistics: null };
  return {
    // The I/O reading first: the heap's last, so that what the meter allocates in between is not counted.
    start() {
      r.io1 = null;
      r.io0 = readIo();
      r.from = performance.now();
      r.heap0 = heapBytes();
    },
    // The heap's reading first, right after the span's last operation; the calls can wait for afterClock.
    end() {
      r.heap1 = heapBytes();
      r.to = performance.now();
    },
    afterClock() {
      r.io1 = readIo();
    },
    close() {
      r.statistics = profiler.stop().statistics;
      r.closed = performance.now();
    },
    raw: () => r,
    figures() {
      const none = { allocatedBytes: null, ...noCalls(null) };
      if (r.heap1 === null || r.statistics === null) return none;
      const before = gcCountBetween(r.opened, r.from);
      const within = gcCountBetween(r.from, r.to);
      // Without the GC observer (Bun), a span is read only when no collection ran in the whole window.
      const collections = before === null ? (r.statistics.length === 0 ? [] : null) : collectionsWithin(r.statistics, { before, within });
      const io = ioBetween(r.io0, r.io1, self);
      return {
        allocatedBytes: collections ? allocatedBetween(r.heap0, r.heap1, collections) - self.bytes : null,
        ...io,
      };
    },
  };
}
