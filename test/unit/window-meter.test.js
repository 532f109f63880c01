// The allocation meter of a count's windows (replay/window-meter.js) and its counter's entry
// (counters/allocations.js): the pure sums, and the meter in a process of the count's V8 flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { COUNTED_SPACES, allocatedBetween, objectBytes } from '../../lib/measuring/figures/allocation.js';
import { COUNT_V8_FLAGS } from '../../lib/replay/valgrind.js';
import allocations, { allocationWindow } from '../../lib/replay/counters/allocations.js';
import { countCells, countHead } from '../../lib/reporting/count-rows.js';
import { countSettings } from '../../lib/replay/counters/index.js';

const space = (name, used) => ({ space_name: name, space_used_size: used });
const gcSpace = (name, used) => ({ spaceName: name, spaceUsedSize: used });

test('objectBytes adds the spaces a figure counts, in either spelling of the statistics: a timed run\'s all but code, a count\'s the young and large', () => {
  const spaces = [space('new_space', 100), space('old_space', 50), space('code_space', 7), space('code_large_object_space', 9), space('new_large_object_space', 30)];
  assert.equal(objectBytes(spaces), 180);
  assert.equal(objectBytes(spaces, COUNTED_SPACES.program), 130);
  assert.equal(objectBytes([gcSpace('new_space', 100), gcSpace('large_object_space', 20), gcSpace('code_space', 7), gcSpace('map_space', 5)], COUNTED_SPACES.program), 120);
});

test('allocatedBetween counts what each collection in between freed as allocated too', () => {
  const collection = (before, after) => ({ beforeGC: { heapSpaceStatistics: [gcSpace('new_space', before)] }, afterGC: { heapSpaceStatistics: [gcSpace('new_space', after)] } });
  assert.equal(allocatedBetween(1000, 1500, []), 500);
  // 1,000 in use, 9,000 allocated, a collection at 9,800 in use keeps 800, then 200 more: 1,000 in use at the end.
  assert.equal(allocatedBetween(1000, 1000, [collection(9800, 800)]), 9000);
});

// In a process of the count's flags (pretenuring off, collections on V8's fixed schedule), as a count's windows are.
const METER_SCRIPT = `
  const { windowMeter } = await import(${JSON.stringify(new URL('../../lib/replay/window-meter.js', import.meta.url).href)});
  const meter = windowMeter();
  meter.mark();
  meter.mark();
  const kept = [];
  for (let i = 0; i < 64; i++) kept.push(new Array(1024).fill(i));
  meter.mark(true);
  console.log(JSON.stringify({ windows: meter.windows().map((w) => w.bytes), kept: kept.length }));
`;

test('the meter reads an empty window as nothing and a known allocation within 5 %', () => {
  const r = spawnSync(process.execPath, [...COUNT_V8_FLAGS, '--input-type=module', '-e', METER_SCRIPT], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { windows: [empty, known] } = JSON.parse(r.stdout);
  assert.equal(empty, 0);
  const expected = 64 * 1024 * 8; // 64 arrays of 1,024 elements of 8 bytes
  assert.ok(Math.abs(known - expected) / expected < 0.05, `${known} bytes against ${expected}`);
});

test('a window\'s figure is its bytes, its traffic the row\'s events, and the table shows writes beside bytes', () => {
  const w = allocationWindow({ bytes: 4096, collections: 1, writes: 2, bytesSent: 40, bytesReceived: 11 });
  assert.deepEqual(w, { figure: 4096, jit: 0, events: { writes: 2, bytesSent: 40, bytesReceived: 11, collections: 1 } });
  const count = countSettings(allocations, { platform: {} });
  assert.deepEqual(countHead(count), ['bytes/op', 'writes/op', 'sent B/op', 'received B/op', 'ops counted', 'window spread']);
  const row = { driver: 'mysql2', ok: true, status: 'ok', deltaPct: 0, count: { perOp: 5531, ops: 1536, spreadPct: 0.47, events: { writes: 2, bytesSent: 16.89, bytesReceived: 11, collections: 0 } } };
  assert.deepEqual(countCells(row, { name: 'do', deltaReference: 'mysql2' }, 'mysql2', count).slice(0, 6), ['5,531', '2.0', '16.9', '11.0', '1,536', '0.47 %']);
  assert.equal(allocations.tool, null, 'a native counter: no Valgrind');
});
