// One streaming measurement in a process of its own (forked by probe.js with --expose-gc),
// so that no other driver's or mode's garbage lands in its memory figures.
//
// Receives one job over IPC: { spec, target, rows, mode: 'fetch-all' | 'stream', budgetMs, minReads,
// maxReads, warmupReads }. Sends back { ok: true, result } or { ok: false, error }, then exits.
//
// 1. warm-up reads of min(rows, 1000) rows (JIT, driver caches), then two forced GCs;
// 2. one read of `rows` rows with the heap sampled (every millisecond and every 1024 rows):
//    heapPeak = highest heap in use during the read minus the heap before it;
//    heapHeld = heap in use after a forced GC with the read's result still referenced, minus before
//    (what the read needs to keep: all rows for fetch-all, nothing for a stream);
//    rssPeak = growth of the process's peak resident set size (getrusage maxRSS) over the read;
// 3. timed reads, no sampling, until budgetMs and minReads (or maxReads): ms per read.
// Every row of every read is checked (id and payload) in both modes.
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { loadDrivers } from '../../lib/drivers/index.js';
import { addSecret, redact } from '../../lib/common/redact.js';
import { checkStreamRow, streamSql } from '../_tables.js';
import { CheckError } from '../_check.js';

const heapUsed = () => v8.getHeapStatistics().used_heap_size;
const maxRssBytes = () => process.resourceUsage().maxRSS * 1024;
const gc = () => {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  globalThis.gc();
  globalThis.gc();
};

async function fetchAll(conn, sql, rows, sample) {
  const result = await conn.query(sql);
  if (!Array.isArray(result) || result.length !== rows) throw new CheckError(`expected ${rows} rows, got ${Array.isArray(result) ? result.length : typeof result}`);
  for (let i = 0; i < result.length; i++) {
    checkStreamRow(result[i], i + 1);
    if (sample && (i & 1023) === 1023) sample();
  }
  return result;
}

async function streamed(conn, sql, rows, sample) {
  let next = 1;
  const count = await conn.stream(sql, [], (row) => {
    checkStreamRow(row, next);
    if (sample && (next & 1023) === 1023) sample();
    next++;
  });
  if (count !== rows || next - 1 !== rows) throw new CheckError(`expected ${rows} rows, got ${count}`);
  return null;
}

/** Warm-up reads of min(rows, 1000) rows (JIT, driver caches). */
async function warmUp(conn, read, job) {
  const warmRows = Math.min(job.rows, 1000);
  const warmSql = streamSql(warmRows);
  const warmStart = performance.now();
  for (let i = 0; i < job.warmupReads || (performance.now() - warmStart < job.warmupMs && i < 10000); i++) {
    await read(conn, warmSql, warmRows, null);
  }
}

/** Memory: one read, the heap sampled during it; peak, held (after a GC, result still referenced) and RSS growth. */
async function measureMemory(conn, read, sql, rows) {
  gc();
  const heapBefore = heapUsed();
  const rssBefore = maxRssBytes();
  let peak = heapBefore;
  const sample = () => {
    const h = heapUsed();
    if (h > peak) peak = h;
  };
  const timer = setInterval(sample, 1);
  let result;
  try {
    result = await read(conn, sql, rows, sample);
    sample();
  } finally {
    clearInterval(timer);
  }
  const rssAfter = maxRssBytes();
  gc();
  const held = heapUsed() - heapBefore;
  if (result && result.length !== rows) throw new Error('unreachable'); // keeps `result` alive until here
  result = null;
  return {
    heapPeakBytes: Math.max(0, peak - heapBefore),
    heapHeldBytes: Math.max(0, held),
    rssPeakBytes: Math.max(0, rssAfter - rssBefore),
  };
}

/** Time: reads without sampling, until budgetMs and minReads (or maxReads). */
async function timeReads(conn, read, sql, job) {
  const times = [];
  const start = performance.now();
  while (times.length < job.maxReads && (times.length < job.minReads || performance.now() - start < job.budgetMs)) {
    const t0 = performance.now();
    await read(conn, sql, job.rows, null);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return { reads: times.length, msPerRead: median, msMin: times[0] };
}

export async function probe(job) {
  const [driver] = await loadDrivers([job.spec], { checked: true });
  const conn = await driver.connect(job.target);
  try {
    if (job.mode === 'stream' && typeof conn.stream !== 'function') throw new Error('no streaming API in this adapter');
    const read = job.mode === 'stream' ? streamed : fetchAll;
    const sql = streamSql(job.rows);
    await warmUp(conn, read, job);
    const memory = await measureMemory(conn, read, sql, job.rows);
    const time = await timeReads(conn, read, sql, job);
    return {
      driver: driver.name,
      api: job.mode === 'stream' ? driver.streamApi ?? 'stream()' : 'query()',
      ...time,
      ...memory,
    };
  } finally {
    await Promise.race([conn.close(), new Promise((r) => setTimeout(r, 2000).unref())]).catch(() => {});
  }
}

// The parent decides when to stop (it kills this process on Ctrl-C); if the parent goes, so does this.
process.on('SIGINT', () => {});
process.on('disconnect', () => process.exit(0));

process.once('message', async (job) => {
  addSecret(job.target?.password);
  let reply;
  try {
    reply = { ok: true, result: await probe(job) };
  } catch (err) {
    reply = { ok: false, error: redact(err?.sqlMessage || err?.message || String(err)) };
  }
  process.send(reply, () => process.exit(0));
});
