// The network settings, pure: the profiles and --rtt parsed, and where --rtt-via holds a run's delay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveNetwork } from '../../lib/server/proxy/index.js';
import { resolveSettings } from '../../lib/resolve-run.js';
import { BENCHES } from '../../benchs/index.js';

test('network profiles and --rtt parsing', () => {
  assert.deepEqual(resolveNetwork({}), { name: 'loopback', rttMs: 0 });
  assert.deepEqual(resolveNetwork({ network: 'lan' }), { name: 'lan', rttMs: 0.5, via: 'process' });
  assert.deepEqual(resolveNetwork({ rtt: '2' }), { name: 'rtt 2 ms', rttMs: 2, via: 'process' });
  assert.deepEqual(resolveNetwork({ rtt: '2', via: 'proxy' }), { name: 'rtt 2 ms', rttMs: 2, via: 'proxy' });
  assert.deepEqual(resolveNetwork({ rtt: '0', via: 'proxy' }), { name: 'loopback', rttMs: 0 });
  assert.throws(() => resolveNetwork({ rtt: '1', via: 'wire' }), /--rtt-via must be one of process, proxy, not 'wire'/);
  assert.throws(() => resolveNetwork({ rtt: '-1' }), /--rtt must be/);
  assert.throws(() => resolveNetwork({ network: 'moon' }), /unknown network profile 'moon'/);
  assert.throws(() => resolveNetwork({ rtt: '1', network: 'lan' }), /not both/);
});

test('--rtt-via: held in the driver processes by default, through the proxy for a run with a TLS bench, refused with one', () => {
  const opts = { drivers: ['mysql2'], wake: { mode: 'none', spinners: 0 }, rtt: '1' };
  const [doBench, tlsBench] = ['do', 'connect_tls'].map((n) => BENCHES.find((b) => b.name === n));
  assert.equal(resolveSettings(opts, [doBench]).network.via, 'process');
  assert.equal(resolveSettings(opts, [doBench, tlsBench]).network.via, 'proxy');
  assert.equal(resolveSettings({ ...opts, rttVia: 'proxy' }, [doBench]).settings.network.via, 'proxy');
  assert.throws(() => resolveSettings({ ...opts, rttVia: 'process' }, [tlsBench]), /^UserError: connect_tls: --rtt-via process cannot hold TLS bytes; use --rtt-via proxy/);
  assert.equal(resolveSettings({ ...opts, rtt: undefined }, [tlsBench]).settings.network.via, undefined);
});

