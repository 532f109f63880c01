// A timed run's bytes allocated, writes and reads per operation (no server): the pure sums of a
// window and a row (measuring/figures/allocation.js), the window code's readings in this process
// (driver/allocation-meter.js, harness-allocation.js), the schema and the renderers' columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocationPerOp, collectionsWithin, ioCalls } from '../../lib/measuring/figures/allocation.js';
import { combineWindows } from '../../lib/measuring/figures/window-fields.js';
import { summarizeWindows } from '../../lib/measuring/figures/row-figures.js';
import { sampleWindow } from '../../lib/measuring/driver/sampler.js';
import { harnessBytesPerOp } from '../../lib/measuring/driver/harness-allocation.js';
import { windowSizer } from '../../lib/measuring/figures/window-sizing.js';
import { LatencyRecorder } from '../../lib/measuring/driver/latency.js';
import { renderTable } from '../../lib/reporting/table.js';
import { renderResultsMarkdown } from '../../lib/reporting/markdown.js';
import { renderResultsHtml } from '../../lib/reporting/html.js';
import { fmtKB } from '../../lib/reporting/format.js';
import { createResults, resultsValidator } from '../../lib/results/file.js';
import { applyDeltas } from '../../lib/results/deltas.js';

test('a row\'s figures are total over total operations, null where a window lacks one', () => {
  const windows = [
    { ops: 100, allocatedBytes: 480000, syscw: 100, syscr: 150, wchar: 1700, rchar: 1100 },
    { ops: 300, allocatedBytes: 1440000, syscw: 300, syscr: 250, wchar: 5100, rchar: 3300 },
  ];
  assert.deepEqual(allocationPerOp(windows), { bytesPerOp: 4800, writesPerOp: 1, readsPerOp: 1, sentBytesPerOp: 17, receivedBytesPerOp: 11 });
  assert.deepEqual(allocationPerOp([{ ops: 10, allocatedBytes: 100, syscw: null, syscr: null }]), { bytesPerOp: 10, writesPerOp: null, readsPerOp: null, sentBytesPerOp: null, receivedBytesPerOp: null });
  assert.equal(allocationPerOp([{ ops: 10, allocatedBytes: null, syscw: null, syscr: null }]), null, 'a --rate or calibrate row');
  assert.equal(allocationPerOp([{ ops: 10 }]), null, 'windows of a driver process before the figure');
  // --workers: a group's windows add up; the row keeps the figure beside its cost.
  const group = combineWindows([{ ops: 100, allocatedBytes: 1000, syscw: 100, syscr: 90, opsPerSec: 1 }, { ops: 100, allocatedBytes: 3000, syscw: 100, syscr: 110, opsPerSec: 1 }]);
  assert.deepEqual([group.allocatedBytes, group.syscw, group.syscr], [4000, 200, 200]);
  assert.equal(combineWindows([{ ops: 1, allocatedBytes: 5 }, { ops: 1, allocatedBytes: null }]).allocatedBytes, null);
  const row = summarizeWindows([{ round: 0, opsPerSec: 10, samples: 1, ops: 100, opsRun: 120, cpuUs: 5, gcMs: 0, allocatedBytes: 2048 * 100, syscw: 200, syscr: 100, wchar: 3400, rchar: 1100 }]);
  assert.deepEqual(row.allocation, { bytesPerOp: 2048, writesPerOp: 2, readsPerOp: 1, sentBytesPerOp: 34, receivedBytesPerOp: 11 });
});

test('/proc/<pid>/io gives the read and write calls and their bytes; a profile\'s collections are cut to the span', () => {
  assert.deepEqual(ioCalls('rchar: 699002\nwchar: 155\nsyscr: 6691\nsyscw: 11\nread_bytes: 0\n'), { syscw: 11, syscr: 6691, wchar: 155, rchar: 699002 });
  assert.equal(ioCalls(''), null);
  assert.deepEqual(collectionsWithin(['a', 'b', 'c', 'd'], { before: 1, within: 2 }), ['b', 'c']);
  assert.equal(collectionsWithin(['a'], { before: 1, within: 1 }), null, 'the observer saw a collection the profile did not');
});

// An operation that allocates nothing of its own, and one that allocates a known array each call.
const SETTLED = Promise.resolve(true);
const ARRAY_BYTES = 16 + 128 * 8 + 32; // a JSArray (32) and its 128 elements with their header (16)
const ops = {
  empty: () => SETTLED,
  known: () => { globalThis.lastArray = new Array(128).fill(0); return SETTLED; },
};

test('through the window code, an empty operation reads no bytes and no calls, a known allocation its bytes', async () => {
  const harness = await harnessBytesPerOp();
  assert.ok(harness > 0, 'the window loop allocates something of its own, which is taken out');
  const read = async (op) => {
    const sizer = windowSizer({ fixed: { ops: 20000, leadOps: 1000, opsPerCheck: 512, opsPerTiming: 64 } });
    let m;
    for (let i = 0; i < 3; i++) m = await sampleWindow({ ops: [op], check: () => {}, sizer, windowS: 1, latencies: new LatencyRecorder() });
    await new Promise((resolve) => setImmediate(resolve));
    const f = m.meter.figures();
    return { bytesPerOp: f.allocatedBytes / m.ops - harness, syscwPerOp: f.syscw / m.ops, syscrPerOp: f.syscr / m.ops };
  };
  const empty = await read(ops.empty);
  assert.ok(Math.abs(empty.bytesPerOp) < 2, `an empty operation: ${empty.bytesPerOp} bytes`);
  if (process.platform === 'linux') {
    assert.ok(empty.syscwPerOp < 0.001 && empty.syscrPerOp < 0.001, `an empty operation: ${empty.syscwPerOp} writes, ${empty.syscrPerOp} reads`);
  }
  const known = await read(ops.known);
  assert.ok(Math.abs(known.bytesPerOp - ARRAY_BYTES) / ARRAY_BYTES < 0.05, `${known.bytesPerOp} bytes against ${ARRAY_BYTES}`);
});

function results({ allocation = true } = {}) {
  const r = createResults({
    startedAt: new Date('2026-01-01T00:00:00Z'),
    env: { node: 'v20.0.0', platform: 'linux', arch: 'x64', cpuModel: 'Test CPU', cpus: 2 },
    server: { version: '10.11.0-MariaDB', kind: 'mariadb', embedded: true },
    drivers: ['mysql', 'mysql2'].map((name) => ({ name, version: '1.0.0' })),
    settings: { baseline: 'mysql', concurrency: 1, time: 3, warmup: 1, rounds: 3, mode: 'default' },
  });
  const row = (driver, opsPerSec, bytesPerOp, writesPerOp) => ({
    driver, protocol: 'text', ok: true, status: 'ok', error: null, opsPerSec, rme: 2.5, samples: 6,
    sampleOpsPerSec: Array.from({ length: 6 }, (_, i) => opsPerSec * (1 + ((i % 3) - 1) / 100)),
    latency: { p50: 800, p90: 900, p99: 1500, max: 9000 },
    rounds: Array.from({ length: 6 }, (_, i) => ({ round: i, opsPerSec })),
    cost: { clientCpuUsPerOp: 30, gcMsPer1000Ops: 1.5, serverCpuUsPerOp: 20 },
    ...(allocation ? { allocation: { bytesPerOp, writesPerOp, readsPerOp: 1 } } : {}),
  });
  r.benches.push({ name: 'do', title: 'DO 1', sql: 'DO 1', results: [row('mysql', 30000, 5734.4, 1), row('mysql2', 37000, 1098907.6, 2)] });
  r.complete = true;
  return applyDeltas(r);
}

test('the schema takes a row\'s allocation; the reports show KB/op, and writes and reads where there is room', () => {
  const validate = resultsValidator();
  assert.ok(validate(JSON.parse(JSON.stringify(results()))), JSON.stringify(validate.errors));
  assert.deepEqual([fmtKB(5734.4), fmtKB(20480), fmtKB(1098907.6), fmtKB(null)], ['5.60', '20.0', '1,073', '-']);
  const table = renderTable(results());
  assert.match(table, /│ KB\/op │\s+Δ vs mysql │/);
  assert.match(table, /│ mysql2\s+│ text\s+│ 37,000 │ .* │\s+1,073 │\s+\+/);
  assert.doesNotMatch(table, /writes\/op │/, 'the default table has room for one column');
  assert.match(table, /KB\/op: bytes the driver process allocated/);
  const wide = renderTable(results(), { latency: true });
  assert.match(wide, /│ server µs\/op │ KB\/op │ writes\/op │ reads\/op │/);
  assert.match(wide, /│\s+20\.0 │\s+5\.60 │\s+1\.00 │\s+1\.00 │\s+baseline │/);
  assert.match(wide, /writes\/op, reads\/op: its write and read system calls/);
  const md = renderResultsMarkdown(results());
  assert.match(md, /\| server µs\/op \| KB\/op \| writes\/op \| reads\/op \| Δ vs mysql \|/);
  assert.match(md, /\| do \| mysql \| text \| 30,000 \| .* \| 5\.60 \| 1\.00 \| 1\.00 \| baseline \|/);
  assert.match(renderResultsHtml(results()), /<th class="num">KB\/op<\/th><th class="num">writes\/op<\/th>.*<td class="num">1,073<\/td><td class="num">2\.00<\/td>/s);
  // A run from before the figure renders as it did.
  assert.doesNotMatch(renderTable(results({ allocation: false }), { latency: true }), /KB\/op/);
  assert.doesNotMatch(renderResultsMarkdown(results({ allocation: false })), /KB\/op/);
});
