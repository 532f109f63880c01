// --rtt held in the driver process (lib/drivers/held-sockets.js): against a plain TCP echo server in
// another process (no database needed), every chunk is held at least its time each way, arrives
// whole and in order, and a TLS connection over a held socket is refused in one line. Only lower
// bounds on time are asserted: lateness is allowed (a busy host), early delivery never is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HELD = fileURLToPath(new URL('../../lib/drivers/held-sockets.js', import.meta.url));

// The client runs in a child process of its own, as a driver process would: the patch is process-wide.
const CLIENT = `
import net from 'node:net';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import { holdSockets, setHold, takeLateness, takeRoundTrips } from ${JSON.stringify(HELD)};
const echo = net.createServer((s) => { s.setNoDelay(true); s.on('data', (d) => s.write(d)); s.on('error', () => {}); });
await new Promise((r) => echo.listen(0, '127.0.0.1', r));
const port = echo.address().port;
const open = () => new Promise((resolve, reject) => { const s = net.connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(s)); s.once('error', reject); });
const roundTrip = (s, msg) => new Promise((resolve) => {
  const t0 = performance.now(); let got = '';
  const onData = (d) => { got += d; if (got.length >= msg.length) { s.off('data', onData); resolve({ ms: performance.now() - t0, got }); } };
  s.on('data', onData); s.write(msg);
});
const out = {};
const plain = await open();
holdSockets({ oneWayMs: 0.4 });
const held = await open();
out.plainShortest = Infinity; out.heldShortest = Infinity; out.echoed = true;
for (let i = 0; i < 50; i++) {
  const a = await roundTrip(plain, 'p' + i); out.plainShortest = Math.min(out.plainShortest, a.ms);
  const b = await roundTrip(held, 'h' + i); out.heldShortest = Math.min(out.heldShortest, b.ms); out.echoed &&= b.got === 'h' + i;
}
out.tripsOneByOne = takeRoundTrips();
// A burst written without waiting: every frame back, in order, none sooner than the RTT after it was sent.
const frames = Array.from({ length: 200 }, (_, i) => String(i).padStart(6, '0'));
const sentAt = []; let buffered = ''; const arrived = [];
await new Promise((resolve) => {
  held.on('data', (d) => { const now = performance.now(); buffered += d; while (buffered.length >= 6) { arrived.push([buffered.slice(0, 6), now]); buffered = buffered.slice(6); } if (arrived.length === frames.length) resolve(); });
  for (const f of frames) { sentAt.push(performance.now()); held.write(f); }
});
out.inOrder = arrived.every(([f], i) => f === frames[i]);
out.tripsBurst = takeRoundTrips();
out.burstShortest = Math.min(...arrived.map(([, t], i) => t - sentAt[i]));
held.removeAllListeners('data');
setHold(0.1);
out.afterSetHold = (await roundTrip(held, 'x')).ms;
out.lateness = takeLateness();
try { tls.connect({ socket: held }); out.tls = 'connected'; } catch (err) { out.tls = err.message; }
// write() then end(last): the server gets both, in order, then the end; nothing fails on the client.
const sink = net.createServer((s) => { let got = ''; s.on('data', (d) => { got += d; }); s.on('end', () => { out.sinkGot = got; s.end(); }); });
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const closing = await new Promise((resolve, reject) => { const s = net.connect({ host: '127.0.0.1', port: sink.address().port }, () => resolve(s)); s.once('error', reject); });
let clientError = null;
closing.on('error', (err) => { clientError = err.message; });
closing.write('first,');
closing.end('last');
await new Promise((r) => closing.on('close', r));
out.clientError = clientError;
sink.close();
plain.destroy(); held.destroy(); echo.close();
process.stdout.write(JSON.stringify(out));
`;

test('held sockets: each chunk held at least its time each way, whole and in order; round trips counted; sockets before holding untouched; TLS refused', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  const out = JSON.parse(stdout);
  assert.ok(out.heldShortest >= 0.8, `held round trip ${out.heldShortest} ms >= 0.8 ms`);
  assert.ok(out.plainShortest < 0.8, `a socket connected before holding is not held (${out.plainShortest} ms)`);
  assert.equal(out.echoed, true);
  assert.equal(out.inOrder, true);
  // Round trips counted on held sockets: one per write after a reply; a burst of writes before any reply is one.
  assert.equal(out.tripsOneByOne, 50);
  assert.equal(out.tripsBurst, 1);
  assert.ok(out.burstShortest >= 0.8, `burst: each frame back no sooner than 0.8 ms (${out.burstShortest})`);
  assert.ok(out.afterSetHold >= 0.2, `after setHold(0.1): ${out.afterSetHold} ms`);
  assert.equal(out.lateness.early, 0);
  assert.ok(out.lateness.chunks > 100 && out.lateness.meanUs >= 0, JSON.stringify(out.lateness));
  assert.match(out.tls, /^--rtt in the driver process does not reach TLS bytes: measure TLS with --rtt-via proxy$/);
  assert.equal(out.sinkGot, 'first,last');
  assert.equal(out.clientError, null);
});
