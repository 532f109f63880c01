// A count run's platform fingerprint (lib/replay/platform.js): built from the host's facts by a pure
// function, and recorded in settings.count next to what the counter records. No Valgrind: the
// counter's record() is replaced by a test counter's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { cpuVendor, describePlatform, hostPlatform, nodeBuild } from '../../lib/replay/platform.js';
import { countSettings, counterNamed, registerCounter } from '../../lib/replay/counters/index.js';
import instructions from '../../lib/replay/counters/instructions.js';

const unregister = registerCounter({ ...instructions, name: 'cached', cacheConfig: () => ({ I1: '32768,8,64', D1: '32768,8,64', LL: '33554432,16,64' }),
  record: () => ({ valgrind: 'valgrind-3.19.0', v8Flags: ['--predictable'] }) });
after(unregister);

test('the fingerprint is built from the facts read on a host: CPU vendor and model, kernel, glibc, Node and its build, the harness', () => {
  const p = describePlatform({
    cpuModel: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz ', cpuinfo: 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n',
    kernel: '6.8.0-1017-azure', glibc: '2.39', node: 'v20.20.2', arch: 'x64',
    variables: { is_debug: 0, clang: 0, enable_lto: false, v8_enable_pointer_compression: 0, node_shared_openssl: true, node_shared_libuv: true, node_shared_zlib: false },
    harness: { version: '0.1.0', commit: 'a79af4d' },
  });
  assert.deepEqual(p, {
    cpu: { vendor: 'GenuineIntel', model: 'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz' },
    kernel: '6.8.0-1017-azure', glibc: '2.39',
    node: { version: 'v20.20.2', arch: 'x64', build: 'release gcc shared libuv,openssl' },
    harness: { version: '0.1.0', commit: 'a79af4d' },
  });
  assert.equal(cpuVendor(null), null, '/proc/cpuinfo unreadable');
  assert.equal(nodeBuild({ is_debug: 1, clang: 1, enable_lto: true, v8_enable_pointer_compression: 1 }), 'debug clang lto pointer-compression');
  assert.equal(describePlatform({ kernel: 'k', node: 'v22.0.0', arch: 'arm64', harness: {}, cacheConfig: 'D1 32k' }).cacheConfig, 'D1 32k');
  assert.equal(describePlatform({ kernel: 'k', node: 'v22.0.0', arch: 'arm64', harness: {} }).glibc, null, 'not glibc (musl)');
});

test("a count run's settings hold this host's platform next to the counter's record; a counter's cache configuration with it", () => {
  const count = countSettings(counterNamed('cached'));
  assert.deepEqual(Object.keys(count), ['what', 'valgrind', 'v8Flags', 'threadPool', 'moduleLoading', 'process', 'sandbox', 'platform', 'noiseFloorPct', 'benchFloorsPct']);
  assert.equal(count.threadPool, 1, "libuv's thread pool of the counted processes (replay/valgrind.js)");
  assert.equal(count.moduleLoading, process.features.require_module ? 'require' : 'import', 'how they load the harness (count-entry.cjs)');
  const p = count.platform;
  assert.equal(p.cpu.model, os.cpus()[0].model.trim());
  assert.equal(p.kernel, os.release());
  assert.equal(p.glibc, process.report.getReport().header.glibcVersionRuntime ?? null);
  assert.deepEqual([p.node.version, p.node.arch], [process.version, process.arch]);
  assert.match(p.node.build, /^(release|debug) (gcc|clang)/);
  assert.match(p.harness.version, /^\d+\.\d+\.\d+/);
  assert.match(p.harness.commit ?? '', /^([0-9a-f]{40})?$/, 'a commit in a checkout, null outside one');
  assert.deepEqual(p.cacheConfig, { I1: '32768,8,64', D1: '32768,8,64', LL: '33554432,16,64' });
  assert.equal('valgrind' in p || 'v8Flags' in p, false, "Valgrind's version and V8's flags are settings.count's own fields, not repeated");
  assert.equal('cacheConfig' in hostPlatform(instructions), false, 'instructions simulates no cache');
  assert.equal(countSettings(counterNamed('cached'), { platform: { kernel: 'given' } }).platform.kernel, 'given');
});
