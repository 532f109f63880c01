// The per-row tuning of --rtt's hold (lib/measuring/driver/held-tuning.js), on a simulated driver: a virtual
// clock, and operations that take their loopback time unheld, and two holds plus the path's own cost
// per round trip held. No server, no sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdFor, measureHold, tuneHold } from '../../lib/measuring/driver/held-tuning.js';

/** A driver whose operations make `trips` round trips each, `loopMs` unheld, each held round trip 2 × hold + `pathMs` more. */
function simulated({ loopMs = 0.03, pathMs = 0.006, trips = 1, connections = 1 }) {
  let now = 0;
  let holdMs = 0;
  let counted = 0;
  const setHistory = [];
  // The connections run at once: a call of one operation on each takes one operation's time.
  const op = (first) => async () => {
    if (first) now += loopMs + (holdMs > 0 ? trips * (2 * holdMs + pathMs) : 0);
    if (holdMs > 0) counted += trips;
    return 'ok';
  };
  return {
    ops: Array.from({ length: connections }, (_, i) => op(i === 0)),
    clock: () => now,
    hold: {
      set: (ms) => { holdMs = ms; setHistory.push(ms); },
      roundTrips: () => { const n = counted; counted = 0; return n; },
    },
    setHistory,
  };
}

test('holdFor: half of what the RTT leaves after the path, within 0.1 µs and the RTT', () => {
  assert.equal(holdFor(0.2, 0.006), 0.097);
  assert.equal(holdFor(0.2, 0.5), 0.0001); // a path costing more than the RTT: the least hold, never none
  assert.equal(holdFor(1, -1), 1);
});

test('tuneHold: the kept hold makes each round trip add the RTT, on one or several round trips per operation', async () => {
  for (const { trips, connections } of [{ trips: 1, connections: 1 }, { trips: 3, connections: 1 }, { trips: 1, connections: 4 }]) {
    const sim = simulated({ pathMs: 0.006, trips, connections });
    const tuned = await tuneHold({ ops: sim.ops, check: (r) => assert.equal(r, 'ok'), rttMs: 0.2, holdMs: 0.1, msPerOp: 0.03, hold: sim.hold, clock: sim.clock });
    assert.equal(tuned.holdMs, 0.097, JSON.stringify(tuned));
    assert.equal(tuned.pathCostMs, 0.006);
    assert.equal(tuned.addedMs, 0.2);
    assert.equal(tuned.within, true);
    assert.equal(tuned.tuned, true);
    assert.equal(tuned.roundTripsPerOp, trips);
    assert.equal(tuned.loopbackP50Us, 30);
    assert.equal(tuned.heldP50Us, Math.round((0.03 + trips * 0.2) * 10000) / 10); // 230 µs for one round trip
    assert.equal(tuned.steps.length, 3);
    assert.equal(sim.setHistory.at(-1), 0.097, 'the hold is left at the tuned one');
    assert.ok(sim.setHistory.every((ms) => ms === 0 || ms > 0.09), 'only no hold and holds near the asked one were tried');
  }
});

test('tuneHold: an operation that makes no round trip keeps the run\'s hold, and says why', async () => {
  const sim = simulated({ trips: 0 });
  const tuned = await tuneHold({ ops: sim.ops, check: () => {}, rttMs: 0.2, holdMs: 0.1, msPerOp: 0.03, hold: sim.hold, clock: sim.clock });
  assert.equal(tuned.holdMs, 0.1);
  assert.match(tuned.skipped, /no round trip/);
  assert.equal(sim.setHistory.at(-1), 0.1);
});

test('measureHold: what a given hold adds on another driver, the hold left as it was', async () => {
  // A driver whose path costs 4 µs more per round trip than the one the hold was tuned on.
  const sim = simulated({ pathMs: 0.010 });
  const seen = await measureHold({ ops: sim.ops, check: () => {}, rttMs: 0.2, holdMs: 0.097, msPerOp: 0.03, hold: sim.hold, clock: sim.clock });
  assert.equal(seen.holdMs, 0.097);
  assert.equal(seen.tuned, false);
  assert.equal(seen.pathCostMs, 0.01);
  assert.equal(seen.addedMs, 0.204);
  assert.equal(seen.within, false, 'more than 1 % (or 3 µs) over the RTT, and said so');
  assert.equal(seen.heldP50Us, 234);
  assert.equal(sim.setHistory.at(-1), 0.097);
  assert.ok(sim.setHistory.every((ms) => ms === 0 || ms === 0.097));
});
