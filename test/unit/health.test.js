import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHealthMonitor } from '../../lib/measuring/host/health.js';

test('the health monitor labels readings with the current cell and reports start, end and peak RSS', () => {
  let clock = 1000;
  const monitor = startHealthMonitor({ intervalMs: 60000, now: () => clock });
  monitor.setCell('do · mysql');
  clock += 2500;
  monitor.sample();
  const health = monitor.stop();
  assert.equal(health.timeline.length, 3);
  assert.equal(health.timeline[0].cell, null);
  assert.equal(health.timeline[1].cell, 'do · mysql');
  assert.equal(health.timeline[1].t, 2.5);
  assert.ok(health.rssStartMB > 0 && health.rssEndMB > 0);
  assert.ok(health.rssPeakMB >= Math.max(health.rssStartMB, health.rssEndMB));
  assert.ok(health.heapUsedEndMB > 0);
});

test('the timeline stays bounded on long runs: past maxPoints it is thinned and sampled half as often', () => {
  let clock = 0;
  const monitor = startHealthMonitor({ intervalMs: 1000, maxPoints: 10, now: () => clock });
  for (let i = 0; i < 100; i++) {
    clock += 1000;
    monitor.sample();
  }
  const health = monitor.stop();
  assert.ok(health.timeline.length <= 10, `timeline has ${health.timeline.length} points`);
  assert.equal(health.timeline[0].t, 0, 'the first reading is kept');
  assert.ok(health.intervalMs > 1000);
  const times = health.timeline.map((r) => r.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
});
