// A count run's platform fingerprint (settings.count.platform): what besides the drivers and the
// replay set can move a count: the CPU, the kernel, glibc, Node's build, the counter's simulated
// cache, and the harness's own code. Valgrind's version and V8's flags are settings.count's own
// fields (valgrind, v8Flags), not repeated here. compare (results/compare-counts.js) says what
// differs between two runs' platforms and widens its noise floor when anything does.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { harnessCode } from '../common/harness.js';

/** Pure: the CPU's vendor (/proc/cpuinfo's vendor_id: 'AuthenticAMD', 'GenuineIntel'), or null. */
export const cpuVendor = (cpuinfo) => /^vendor_id\s*:\s*(.+)$/m.exec(cpuinfo ?? '')?.[1].trim() ?? null;

/**
 * Pure: Node's build in a few words, from process.config.variables: 'release' or 'debug', the
 * compiler, and what changes the code a count runs through (LTO, PGO, V8's pointer compression,
 * the libraries linked from the system: a distribution's Node, not nodejs.org's).
 */
export function nodeBuild(v = {}) {
  const shared = Object.keys(v).filter((k) => k.startsWith('node_shared_') && v[k] === true).map((k) => k.slice('node_shared_'.length));
  return [
    Number(v.is_debug) ? 'debug' : 'release',
    Number(v.clang) ? 'clang' : 'gcc',
    ...(v.enable_lto === true ? ['lto'] : []),
    ...(v.enable_pgo_use === true ? ['pgo'] : []),
    ...(Number(v.v8_enable_pointer_compression) ? ['pointer-compression'] : []),
    ...(shared.length ? [`shared ${shared.sort().join(',')}`] : []),
  ].join(' ');
}

/**
 * Pure: the fingerprint from the facts read on the host (hostPlatform): { cpu: { vendor, model },
 * kernel, glibc, node: { version, arch, build }, harness: { version, commit }, cacheConfig? }.
 */
export const describePlatform = ({ cpuModel, cpuinfo, kernel, glibc, node, arch, variables, harness, cacheConfig }) => ({
  cpu: { vendor: cpuVendor(cpuinfo), model: cpuModel?.trim() || 'unknown' },
  kernel,
  glibc: glibc ?? null,
  node: { version: node, arch, build: nodeBuild(variables) },
  harness,
  ...(cacheConfig ? { cacheConfig } : {}),
});

const readOrNull = (file) => {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
};

/** This host's platform, for a count by `counter` (its cacheConfig, when it simulates a cache). */
export function hostPlatform(counter) {
  return describePlatform({
    cpuModel: os.cpus()[0]?.model,
    cpuinfo: readOrNull('/proc/cpuinfo'),
    kernel: os.release(),
    glibc: process.report?.getReport().header.glibcVersionRuntime,
    node: process.version,
    arch: process.arch,
    variables: process.config.variables,
    harness: harnessCode(),
    cacheConfig: typeof counter.cacheConfig === 'function' ? counter.cacheConfig() : counter.cacheConfig,
  });
}
