#!/usr/bin/env node
// How close --rtt comes to the round trip it names (docs/history/2026-11-25-rtt.md):
//   node bin/mysql-driver-bench.js do --time 2 --json lo.json
//   for R in 0.2 0.5 1 2; do node bin/mysql-driver-bench.js do --time 2 --rtt $R --json r$R.json; done
//   node scripts/rtt-acceptance.js lo.json r0.2.json r0.5.json r1.json r2.json
// For each driver of each run with an RTT: is its p50 within ±5 % (or ±25 µs) of R + its own p50 in the
// loopback run, and its ops/s within 5 % of 1000 / (R + that p50 in ms), and never above 1000 / R?
import { readFileSync } from 'node:fs';

const [loopbackFile, ...rttFiles] = process.argv.slice(2);
if (!loopbackFile || rttFiles.length === 0) {
  process.stderr.write('usage: node scripts/rtt-acceptance.js <loopback.json> <rtt.json> [...]\n');
  process.exit(2);
}
const load = (f) => JSON.parse(readFileSync(f, 'utf8'));
const rowsOf = (results) => results.benches.find((b) => b.name === 'do')?.results.filter((r) => r.ok) ?? [];

const loopback = load(loopbackFile);
const loopbackP50 = new Map(rowsOf(loopback).map((r) => [r.driver, r.latency.p50]));
let passed = 0;
let checks = 0;
for (const file of rttFiles) {
  const run = load(file);
  const rttMs = run.settings.network?.rttMs ?? 0;
  const c = run.settings.network?.calibration;
  const cells = rowsOf(run).filter((r) => loopbackP50.has(r.driver)).map((r) => {
    const targetUs = rttMs * 1000 + loopbackP50.get(r.driver);
    const toleranceUs = Math.max(0.05 * targetUs, 25);
    const p50Ok = Math.abs(r.latency.p50 - targetUs) <= toleranceUs;
    const opsOff = (r.opsPerSec * targetUs) / 1e6 - 1;
    const opsOk = Math.abs(opsOff) <= 0.05 && r.opsPerSec <= 1000 / rttMs;
    passed += p50Ok + opsOk;
    checks += 2;
    // The row's own hold and what its driver saw in the same minute (held-tuning.js), where it has one.
    const own = r.held?.heldP50Us ? `; own hold ${r.held.holdMs} ms, p50 ${Math.round(r.held.loopbackP50Us)} → ${Math.round(r.held.heldP50Us)} µs` : '';
    return `${r.driver} p50 ${Math.round(r.latency.p50)} µs (target ${Math.round(targetUs)} ± ${Math.round(toleranceUs)}) ${p50Ok ? 'ok' : 'NO'}, `
      + `ops/s ${Math.round(r.opsPerSec)} (${(opsOff * 100).toFixed(1)} %) ${opsOk ? 'ok' : 'NO'}${own}`;
  });
  const held = c?.calibrated ? `, held ${c.holdMs} ms each way (a client saw +${c.observed.addedMs} ms before, +${c.after?.addedMs ?? '-'} after)` : '';
  console.log(`--rtt ${rttMs} via ${run.settings.network?.via ?? 'proxy'}${held}\n  ${cells.join('\n  ')}`);
}
console.log(`${passed} of ${checks} checks pass`);
