// What a timed window's measured span allocated on V8's heap and how many read and write system calls
// this process made in it, read just outside the span (sampler.js): the heap's bytes in use at its
// start and end, what each collection in between freed (GCProfiler, started before the window and
// stopped after it), and /proc/self/io's syscr and syscw (Linux; null elsewhere).
//
// /proc/self/io counts the whole process's calls, every thread's. In a measured span they are the
// driver's socket reads and writes: the harness's IPC with its parent happens before and after a
// window (driver-process.js answers one request at a time), and the span makes no other I/O but the
// rare wake-up of the event loop by one of V8's or libuv's threads.
import fs from 'node:fs';
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import { IO_FIELDS, allocatedBetween, collectionsWithin, ioCalls, objectBytes } from '../figures/allocation.js';
import { gcCountBetween } from './gc-pauses.js';

// One descriptor kept open, read by position: a few µs, against tens to open and read the file anew.
let ioFd;
const ioBuffer = Buffer.alloc(1024);
function openIo() {
  if (ioFd === undefined) {
    try { ioFd = fs.openSync('/proc/self/io', 'r'); } catch { ioFd = null; }
  }
  return ioFd;
}

/** This process's read and write system calls so far, or null (no /proc/self/io). */
export function readIo() {
  const fd = openIo();
  if (fd === null) return null;
  const n = fs.readSync(fd, ioBuffer, 0, ioBuffer.length, 0);
  return ioCalls(ioBuffer.latin1Slice(0, n));
}

const heapBytes = () => objectBytes(v8.getHeapSpaceStatistics());

// The meter's own readings, taken back to back in empty spans: what they allocate and the calls
// they make, subtracted from every span. V8 gives the meter's functions their feedback after some
// calls, an allocation the first empty spans hold and later ones do not.
const EMPTY_SPANS = 16;
/** Every I/O field at `value`. */
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

/**
 * A meter of one window: open it before the window's benchmark runs (it starts the profiler), start()
 * just before the measured span, end() just after it, afterClock() once benchmark.js has stopped its
 * clock, close() after the window. figures(), once the GC observer has delivered the span's entries
 * (a turn after), gives { allocatedBytes, syscw, syscr, wchar, rchar }, each null when not measured.
 */
export function spanMeter({ own: given } = {}) {
  const self = given ?? ownReadings();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const r = { opened: performance.now(), closed: null, from: null, to: null, heap0: null, heap1: null, io0: null, io1: null, statistics: null };
  return {
    // The I/O reading first: the heap's last, so that what the meter allocates in between is not counted.
    start() {
      r.io1 = null; // a short sample run again is measured anew
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
